/// The access level of the generated declarations.
///
/// `public` (the default) suits a machine in a library whose types are public; an app target whose
/// context and payload types are internal needs `internal`, or the compiler rejects public
/// declarations that use internal types.
public enum AccessLevel: String, Sendable, CaseIterable {
    /// `public`: the machine is part of the module's API.
    case `public`
    /// `package`: visible to the other modules of the package.
    case package
    /// `internal`: visible in the module only.
    case `internal`

    /// The keyword and a space, or nothing for `internal` (the default level needs no keyword).
    var prefix: String { self == .internal ? "" : "\(rawValue) " }

    /// The prefix of a property others may read but only the module may set.
    var readOnlyPrefix: String { self == .internal ? "" : "\(rawValue) internal(set) " }
}
