// BranchFingerprint: which spec a machine was generated from, as the inspector checks it
// (Docs/Inspector.md I76). A hello names its spec by file name, and another file of that name
// (a test fixture, an older copy) may lie in the folder the inspector searches; the branches, with
// their YAML lines, columns and what they do, are what a diagram draws, and both sides can read
// them: the app from `StateMachine.transitions`, the inspector from the spec it checked.

import StateLoop

/// A spec's branches as 16 hex digits: FNV-1a (64 bits) of each branch's `LINE:COLUMN description`
/// and a newline, in id order, the table the generated machine declares (`TransitionInfo.table`).
public enum BranchFingerprint {
    /// The fingerprint of `transitions`, in id order.
    public static func of(_ transitions: [TransitionInfo]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for branch in transitions {
            for byte in "\(branch.line):\(branch.column) \(branch.description)\n".utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
