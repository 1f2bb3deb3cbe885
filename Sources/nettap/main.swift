// The `nettap` executable: everything lives in NetTapCLI so it can be tested in-process.
import Foundation
import NetTapCLI

let code = await NetTapCLI.main(
    arguments: CommandLine.arguments.dropFirst(),
    stdout: .standardOutput,
    stderr: .standardError
)
exit(code)
