// PlatformLock: the plain OS lock behind the event queue; and the thread identity and one-shot
// latch that `stop()` needs to wait for a drainer on another thread.
//
// Why not `Synchronization.Mutex`: on Linux its lock is futex code inside the standard library,
// which ThreadSanitizer does not see, so every access to the guarded value is reported as a
// race. pthread mutexes (and os_unfair_lock on Darwin) are intercepted by ThreadSanitizer, cost
// the same uncontended, and `Mutex` would also need macOS 15 while the package supports 14.
//
// Invariants:
// - A lock is locked and unlocked by the same thread, never recursively, and deallocated once by
//   its owner.
// - A latch opens once and stays open.

#if canImport(Darwin)
import Darwin
import os
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// A non-recursive OS lock at a stable address. The owner must call `deallocate()` once.
/// (Package-wide: StateLoopInspector guards its buffers with it.)
@usableFromInline
package struct PlatformLock {
    #if canImport(Darwin)
    @usableFromInline let pointer: UnsafeMutablePointer<os_unfair_lock>
    #else
    @usableFromInline let pointer: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    @inlinable
    package init() {
        pointer = .allocate(capacity: 1)
        #if canImport(Darwin)
        pointer.initialize(to: os_unfair_lock())
        #else
        pointer.initialize(to: pthread_mutex_t())
        pthread_mutex_init(pointer, nil)
        #endif
    }

    @inlinable @inline(__always)
    package func lock() {
        #if canImport(Darwin)
        os_unfair_lock_lock(pointer)
        #else
        pthread_mutex_lock(pointer)
        #endif
    }

    @inlinable @inline(__always)
    package func unlock() {
        #if canImport(Darwin)
        os_unfair_lock_unlock(pointer)
        #else
        pthread_mutex_unlock(pointer)
        #endif
    }

    @inlinable
    package func deallocate() {
        #if !canImport(Darwin)
        pthread_mutex_destroy(pointer)
        #endif
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}

/// A thread's identity (the OS thread handle).
@usableFromInline
typealias PlatformThread = pthread_t

/// The calling thread, to recognise a call made from inside the drainer's own call stack.
@inlinable @inline(__always)
func currentThread() -> PlatformThread {
    pthread_self()
}

/// Whether `first` and `second` are the same thread.
@inlinable @inline(__always)
func isSameThread(_ first: PlatformThread, _ second: PlatformThread) -> Bool {
    pthread_equal(first, second) != 0
}

/// A one-shot gate that threads wait at until it is opened, once. Used by `stop()` to wait for a
/// drainer on another thread; pthread mutex and condition, which ThreadSanitizer understands.
@usableFromInline
final class OneShotLatch: @unchecked Sendable {
    // Guarded by `mutex`.
    private var isOpen = false
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    @usableFromInline
    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Lets every waiter (present and future) through.
    @usableFromInline
    func open() {
        pthread_mutex_lock(mutex)
        isOpen = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Returns once `open()` has been called.
    @usableFromInline
    func wait() {
        pthread_mutex_lock(mutex)
        while !isOpen { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }
}
