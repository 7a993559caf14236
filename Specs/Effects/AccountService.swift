// The types SignIn.machine.yml names, and an in-process account service that checks passwords.

/// What the sign-in form sends.
public struct Credentials: Equatable, Sendable {
    public var email: String
    public var password: String
    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

/// Accepts the accounts it was given, rejects everything else with a reason.
public struct AccountService: SignIn.Effects {
    private let passwords: [String: String]

    public init(passwords: [String: String]) {
        self.passwords = passwords
    }

    public func signIn(_ request: Credentials) async -> SignIn.SignInResult {
        guard let password = passwords[request.email] else {
            return .rejected(reason: "No account for \(request.email).")
        }
        guard password == request.password else {
            return .rejected(reason: "Wrong password.")
        }
        return .accepted(token: "token-\(request.email.prefix { $0 != "@" })")
    }
}
