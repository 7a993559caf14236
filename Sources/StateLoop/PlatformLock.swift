// PlatformLock: the plain OS lock behind the event queue.
//
// Why not `Synchronization.Mutex`: on Linux its lock is futex code inside the standard library,
// which ThreadSanitizer does not see, so every access to the guarded value is reported as a
// race. pthread mutexes (and os_unfair_lock on Darwin) are intercepted by ThreadSanitizer, cost
// the same uncontended, and `Mutex` would also need macOS 15 while the package supports 14.

#if canImport(Darwin)
import os
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// A non-recursive OS lock at a stable address. The owner must call `deallocate()` once.
@usableFromInline
struct PlatformLock {
    #if canImport(Darwin)
    @usableFromInline let pointer: UnsafeMutablePointer<os_unfair_lock>
    #else
    @usableFromInline let pointer: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    @inlinable
    init() {
        pointer = .allocate(capacity: 1)
        #if canImport(Darwin)
        pointer.initialize(to: os_unfair_lock())
        #else
        pointer.initialize(to: pthread_mutex_t())
        pthread_mutex_init(pointer, nil)
        #endif
    }

    @inlinable @inline(__always)
    func lock() {
        #if canImport(Darwin)
        os_unfair_lock_lock(pointer)
        #else
        pthread_mutex_lock(pointer)
        #endif
    }

    @inlinable @inline(__always)
    func unlock() {
        #if canImport(Darwin)
        os_unfair_lock_unlock(pointer)
        #else
        pthread_mutex_unlock(pointer)
        #endif
    }

    @inlinable
    func deallocate() {
        #if !canImport(Darwin)
        pthread_mutex_destroy(pointer)
        #endif
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}
