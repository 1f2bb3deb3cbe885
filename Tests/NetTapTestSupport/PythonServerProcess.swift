import Foundation
import NetTapCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A Python server run by a test process under a launcher that stops it when the test process goes away.
///
/// The server's standard output and standard error reach a ``ServerOutput`` through pipes; standard input is a
/// pipe whose end-of-file (at ``stop()``, or when the test process dies) makes the launcher stop the server with
/// SIGINT. Used by ``HTTPBin`` (gunicorn) and ``FaultServer`` (a standard-library script).
///
/// Thread safety: every member may be used from any thread.
final class PythonServerProcess: @unchecked Sendable {
    /// What the server has written so far.
    let output: ServerOutput
    private let process: Process
    private let input: Pipe
    private let directory: URL
    private let stopped = Locked(false)

    /// Starts `python -c launcher ARGUMENTS…`; the launcher runs `python ARGUMENTS…` as its child.
    ///
    /// - Parameters:
    ///   - python: The interpreter.
    ///   - arguments: The child's arguments, such as `["-m", "gunicorn", …]` or `[script, …]`.
    ///   - directory: A folder for the copy of the error log (`error.log`); created here, removed by ``stop()``.
    /// - Throws: ``HTTPBin/Failure`` when the interpreter cannot be run.
    init(python: URL, arguments: [String], directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let errorLog = directory.appendingPathComponent("error.log")
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", Self.launcher] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONUNBUFFERED"] = "1"
        process.environment = environment
        let input = Pipe()
        let standardOutput = Pipe()
        let standardError = Pipe()
        // Only the launcher may hold these pipes: no other child of this process may keep a copy of a write
        // end (standard input would never reach end-of-file; the logs would never end) or of a read end.
        // `Process` dup2()s the launcher's ends onto 0, 1 and 2, which clears close-on-exec there.
        for handle in [
            input.fileHandleForWriting, input.fileHandleForReading,
            standardOutput.fileHandleForReading, standardOutput.fileHandleForWriting,
            standardError.fileHandleForReading, standardError.fileHandleForWriting,
        ] {
            _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)
        }
        process.standardInput = input
        process.standardOutput = standardOutput
        process.standardError = standardError
        do {
            try process.run()
        } catch {
            throw HTTPBin.Failure(description: "could not run \(python.path): \(error)")
        }
        // `run()` closed this process's copies of the launcher's ends, so each stream ends when the launcher,
        // the server and any of its own children have all exited.
        self.output = ServerOutput(output: standardOutput, error: standardError, errorLog: errorLog)
        self.process = process
        self.input = input
        self.directory = directory
        Self.running.withLock { $0[ObjectIdentifier(self)] = self }
        _ = Self.stopAtExit
    }

    /// Every server started and not stopped yet; stopped by an `atexit` handler, so none outlives the process's
    /// normal exit (the launcher covers a process that dies).
    private static let running = Locked<[ObjectIdentifier: PythonServerProcess]>([:])

    /// Registers the `atexit` handler once, on the first start.
    private static let stopAtExit: Void = {
        atexit {
            let all = PythonServerProcess.running.withLock { Array($0.values) }
            for server in all { server.stop() }
        }
    }()

    /// Closes the launcher's standard input (the server gets SIGINT) and waits up to 5 seconds for it to exit.
    ///
    /// Calling it again does nothing.
    func stop() {
        let first = stopped.withLock { wasStopped in
            defer { wasStopped = true }
            return !wasStopped
        }
        guard first else { return }
        Self.running.withLock { $0[ObjectIdentifier(self)] = nil }
        try? input.fileHandleForWriting.close()
        let exited = DispatchSemaphore(value: 0)
        // A thread of its own: a global queue's few threads may all be busy (see `offThePool`).
        Thread { [process] in
            process.waitUntilExit()
            exited.signal()
        }.start()
        if exited.wait(timeout: .now() + 5) == .timedOut, process.isRunning {
            process.terminate()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// The launcher: runs `python ARGUMENTS…` and stops it when the launcher's standard input closes (at `stop()`
    /// or when the test process dies) or when the launcher receives SIGTERM.
    ///
    /// Foundation's `Process` on Linux starts the child with the blocked-signal mask of the spawning thread
    /// (observed: `SigBlk: fffffffe3bfbea27` in `/proc/PID/status`, so SIGTERM and SIGINT stay pending forever)
    /// and with this process's other descriptors open (a copy of the pipe's write end keeps standard input
    /// from ever reaching end-of-file). The launcher undoes both before starting the server: it closes inherited
    /// pipes, but not sockets — Foundation's `Process` watches a socket held by the child to learn that it exited;
    /// closing it makes Foundation block in `wait4` for this launcher, which stalls every other `Process` in the
    /// test run (seen as a hang of `waitUntilExit` in unrelated tests).
    ///
    /// The server inherits nothing but the launcher's standard output and standard error (`close_fds=True`,
    /// standard input from `/dev/null`), so it writes straight into this process's pipes; no forwarding
    /// thread sits in between, so nothing can buffer or stall a line (`PYTHONUNBUFFERED=1` covers the
    /// launcher's own output).
    ///
    /// The standard-input watcher reads with `os.read`, not `sys.stdin.buffer.read()`: a daemon thread blocked in
    /// a buffered read makes the interpreter abort at exit (`Fatal Python error: _enter_buffered_busy`) when
    /// the server exits on its own.
    private static let launcher = """
        import os, signal, stat, subprocess, sys, threading
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(number, signal.SIG_DFL)
        for fd in range(3, 4096):
            try:
                if stat.S_ISFIFO(os.fstat(fd).st_mode):
                    os.close(fd)
            except OSError:
                pass
        child = subprocess.Popen([sys.executable, *sys.argv[1:]], stdin=subprocess.DEVNULL, close_fds=True)
        def stop(*_):
            if child.poll() is None:
                child.send_signal(signal.SIGINT)
        signal.signal(signal.SIGTERM, stop)
        def watch():
            try:
                while os.read(0, 65536):
                    pass
            finally:
                stop()
        threading.Thread(target=watch, daemon=True).start()
        sys.exit(child.wait())
        """
}
