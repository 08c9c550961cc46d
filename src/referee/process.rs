//! An engine as a child process: lines to its stdin, its stdout lines through a
//! channel stamped with the instant they were read, its stderr into the log.
//!
//! Everything the referee knows about time comes from these stamps, so a reply
//! is timed when it arrived, not when a busy referee thread got round to it.
//! Waiting is always bounded by a deadline and watches the match's stop flag,
//! so neither a silent engine nor Ctrl-C can hang the referee.
//!
//! Each engine runs in a process group of its own, and ending it (after
//! `quit`, on a fault, on Ctrl-C, or by dropping it) kills the whole group:
//! an engine started by a wrapper script, or one that starts helpers, leaves
//! nothing behind. No engine outlives its match.

use std::fmt;
use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};

use crate::protocol::{InputLine, MAX_LINE_BYTES, read_line};

/// How often a wait looks at the stop flag.
const STOP_POLL: Duration = Duration::from_millis(20);

/// How long a process that was told to quit gets before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(200);

/// Why no line came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WaitError {
    /// The deadline passed.
    Timeout,
    /// The engine closed its output (it exited or crashed); the detail says how.
    Closed(String),
    /// The engine wrote a line that is no text line.
    Unreadable(Unreadable),
    /// The match is being stopped.
    Interrupted,
}

/// A line the engine wrote that is no text line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unreadable {
    /// Longer than the reader takes: its length in bytes.
    TooLong(usize),
    /// Not UTF-8.
    NotUtf8,
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unreadable::TooLong(n) => write!(
                f,
                "wrote a line of {n} bytes (at most {MAX_LINE_BYTES} are read)"
            ),
            Unreadable::NotUtf8 => f.write_str("wrote a line that is not UTF-8"),
        }
    }
}

/// Why a line could not be sent to the engine.
#[derive(Debug)]
pub enum SendError {
    /// Its input was closed before (a write failed, or it was shut down).
    InputClosed,
    /// The write failed: the engine has exited or closed its input.
    Write {
        /// How the process ended.
        exit: String,
        /// The line that was being written.
        line: String,
        /// The write's error.
        error: io::Error,
    },
}

impl fmt::Display for SendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SendError::InputClosed => f.write_str("its input is closed"),
            SendError::Write { exit, line, error } => {
                write!(f, "{exit} (writing '{line}': {error})")
            }
        }
    }
}

impl std::error::Error for SendError {}

/// A line as the reader thread passes it on: the text, or why it is unreadable.
type Line = Result<String, Unreadable>;

/// A running engine process.
pub struct EngineProcess {
    name: String,
    child: Child,
    /// The child has been reaped: its pid (and group id) may be reused.
    reaped: bool,
    stdin: Option<ChildStdin>,
    lines: Receiver<Option<(Instant, Line)>>,
    stop: Arc<AtomicBool>,
}

impl EngineProcess {
    /// Starts `program` with `args`, its stdin and stdout piped to the referee.
    /// `name` labels its log lines; `stop` is the match's stop flag.
    ///
    /// # Errors
    /// The program cannot be started.
    pub fn spawn(
        name: &str,
        program: &str,
        args: &[String],
        stop: Arc<AtomicBool>,
    ) -> io::Result<EngineProcess> {
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // Ctrl-C at the terminal reaches the whole foreground process group.
        // Engines get a group of their own, so the referee alone decides how
        // and when they stop, no engine dies mid-game looking like a crash,
        // and ending an engine can end everything it started.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn()?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let stdin = child.stdin.take();
        let (tx, rx) = unbounded();
        let label = name.to_string();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Ok(Some(line)) = read_line(&mut reader) {
                let line = match line {
                    InputLine::Text(text) => Ok(text),
                    InputLine::TooLong(n) => Err(Unreadable::TooLong(n)),
                    InputLine::NotUtf8 => Err(Unreadable::NotUtf8),
                };
                log::trace!("{label} < {line:?}");
                if tx.send(Some((Instant::now(), line))).is_err() {
                    return;
                }
            }
            let _ = tx.send(None);
        });
        let label = name.to_string();
        thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                log::debug!("{label} stderr: {line}");
            }
        });
        Ok(EngineProcess {
            name: name.to_string(),
            child,
            reaped: false,
            stdin,
            lines: rx,
            stop,
        })
    }

    /// The engine's name in the match.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The match's stop flag.
    pub fn stop_flag(&self) -> &Arc<AtomicBool> {
        &self.stop
    }

    /// Sends one line and returns the instant it was written.
    ///
    /// # Errors
    /// The engine no longer reads its input (it has exited); the error says how.
    pub fn send(&mut self, line: &str) -> Result<Instant, SendError> {
        log::trace!("{} > {line}", self.name);
        let stdin = self.stdin.as_mut().ok_or(SendError::InputClosed)?;
        match stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| stdin.flush())
        {
            Ok(()) => Ok(Instant::now()),
            Err(error) => {
                self.stdin = None;
                Err(SendError::Write {
                    exit: self.exit_detail(),
                    line: line.to_string(),
                    error,
                })
            }
        }
    }

    /// The next line the engine writes, with the instant it was read, if it
    /// comes before `deadline`.
    ///
    /// # Errors
    /// The deadline passed, the engine closed its output or wrote a line that
    /// cannot be read, or the match is being stopped.
    pub fn next_line(&mut self, deadline: Instant) -> Result<(Instant, String), WaitError> {
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return Err(WaitError::Interrupted);
            }
            let now = Instant::now();
            let received = if now >= deadline {
                // A line already waiting counts if it was read in time.
                match self.lines.try_recv() {
                    Ok(Some((at, line))) if at <= deadline => Some((at, line)),
                    _ => return Err(WaitError::Timeout),
                }
            } else {
                match self.lines.recv_timeout((deadline - now).min(STOP_POLL)) {
                    Ok(Some(line)) => Some(line),
                    Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                        return Err(WaitError::Closed(self.exit_detail()));
                    }
                    Err(RecvTimeoutError::Timeout) => None,
                }
            };
            if let Some((at, line)) = received {
                return line.map(|text| (at, text)).map_err(WaitError::Unreadable);
            }
        }
    }

    /// How the process ended, for messages: its exit status if it exits
    /// within a moment, else that it closed its output. Either way the engine
    /// is ended: it is of no further use.
    fn exit_detail(&mut self) -> String {
        self.end(QUIT_GRACE)
            .map_or_else(|| "it closed its output".to_string(), describe_exit)
    }

    /// Says `quit_line` (if any), gives the engine a moment to exit, then ends
    /// it. Dropping does the same without the polite word.
    pub fn shut_down(&mut self, quit_line: Option<&str>) {
        let grace = match quit_line {
            Some(line) if self.send(line).is_ok() => QUIT_GRACE,
            _ => Duration::ZERO,
        };
        self.stdin = None;
        self.end(grace);
    }

    /// Waits up to `grace` for the engine to exit by itself, then kills its
    /// whole process group and reaps it. Returns the exit status if it exited
    /// by itself. The group is killed before the engine is reaped, so its id
    /// is still the engine's own and cannot name another group.
    fn end(&mut self, grace: Duration) -> Option<ExitStatus> {
        if self.reaped {
            return self.child.try_wait().ok().flatten();
        }
        let deadline = Instant::now() + grace;
        let exited = loop {
            match self.has_exited() {
                Ok(true) => break true,
                Ok(false) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => break false,
            }
        };
        self.kill_group();
        if !exited {
            let _ = self.child.kill();
        }
        let status = self.child.wait().ok();
        self.reaped = true;
        status.filter(|_| exited)
    }

    /// Whether the engine's own process has exited, without reaping it.
    #[cfg(target_os = "linux")]
    fn has_exited(&mut self) -> io::Result<bool> {
        let pid = libc::id_t::from(self.child.id());
        // SAFETY: `info` is a plain struct waitid fills in; WNOWAIT leaves
        // the child to be reaped by `Child::wait`.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
            if libc::waitid(libc::P_PID, pid, &raw mut info, flags) != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(info.si_pid() != 0)
        }
    }

    /// Whether the engine's own process has exited (elsewhere, by reaping it:
    /// the group it leaves keeps its id reserved while any member lives).
    #[cfg(not(target_os = "linux"))]
    fn has_exited(&mut self) -> io::Result<bool> {
        let exited = self.child.try_wait()?.is_some();
        self.reaped |= exited;
        Ok(exited)
    }

    /// Kills every process of the engine's group: whatever it started too.
    fn kill_group(&mut self) {
        #[cfg(unix)]
        if let Ok(group) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: a plain system call; the group is the engine's own
            // (`spawn` made it), so no other process is touched.
            unsafe {
                libc::killpg(group, libc::SIGKILL);
            }
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin = None;
        self.end(Duration::ZERO);
    }
}

/// "it exited with status 3", "it was killed by signal 9".
fn describe_exit(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("it exited with status {code}");
    }
    #[cfg(unix)]
    if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&status) {
        return format!("it was killed by signal {signal}");
    }
    format!("it ended ({status})")
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn sh(script: &str) -> EngineProcess {
        EngineProcess::spawn(
            "sh",
            "sh",
            &["-c".to_string(), script.to_string()],
            Arc::new(AtomicBool::new(false)),
        )
        .unwrap()
    }

    #[test]
    fn lines_timeouts_and_exit() {
        let mut p = sh("read x; echo \"got $x\"; sleep 60");
        let sent = p.send("hello").unwrap();
        let (at, line) = p.next_line(sent + Duration::from_secs(60)).unwrap();
        assert_eq!(line, "got hello");
        assert!(at >= sent);
        let soon = Instant::now() + Duration::from_millis(50);
        assert_eq!(p.next_line(soon), Err(WaitError::Timeout));

        let mut p = sh("exit 3");
        let far = Instant::now() + Duration::from_secs(60);
        assert_eq!(
            p.next_line(far),
            Err(WaitError::Closed("it exited with status 3".into()))
        );
        assert!(p.send("anything").is_err() || p.send("again").is_err());
    }

    #[test]
    fn unreadable_lines_are_reported() {
        let mut p = sh("printf 'fine\\n\\377\\376\\n'; sleep 60");
        let far = Instant::now() + Duration::from_secs(60);
        assert_eq!(p.next_line(far).map(|(_, line)| line), Ok("fine".into()));
        assert_eq!(
            p.next_line(far),
            Err(WaitError::Unreadable(Unreadable::NotUtf8))
        );
        assert_eq!(
            Unreadable::NotUtf8.to_string(),
            "wrote a line that is not UTF-8"
        );
    }

    #[test]
    fn stop_flag_ends_a_wait() {
        let mut p = sh("sleep 60");
        p.stop.store(true, Ordering::Relaxed);
        let far = Instant::now() + Duration::from_secs(60);
        let started = Instant::now();
        assert_eq!(p.next_line(far), Err(WaitError::Interrupted));
        // Without the flag, the wait would last the minute.
        assert!(started.elapsed() < Duration::from_secs(30));
    }

    #[test]
    fn drop_kills() {
        let p = sh("sleep 300");
        let started = Instant::now();
        drop(p);
        assert!(started.elapsed() < Duration::from_secs(60));
    }

    /// Whether a process is gone: no such process, or a zombie.
    #[cfg(target_os = "linux")]
    fn gone(pid: &str) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
            stat.rsplit_once(") ")
                .is_some_and(|(_, rest)| rest.starts_with(['Z', 'X']))
        })
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn ending_an_engine_ends_what_it_started() {
        // A shell that starts a long sleep without `exec`, as engine wrapper
        // scripts do; the shell itself exits on `quit`, or is killed.
        for quit in [Some("quit"), None] {
            let mut p = sh("sleep 1000 & echo $!; read x; exit 0");
            let far = Instant::now() + Duration::from_secs(60);
            let (_, sleep) = p.next_line(far).unwrap();
            assert!(!gone(&sleep));
            match quit {
                Some(line) => p.shut_down(Some(line)),
                None => drop(p),
            }
            // The kill lands at once; the orphan is reaped by init.
            let deadline = Instant::now() + Duration::from_secs(30);
            while !gone(&sleep) && Instant::now() < deadline {
                thread::sleep(Duration::from_millis(20));
            }
            let left = !gone(&sleep);
            if left {
                let _ = Command::new("kill").args(["-KILL", &sleep]).status();
            }
            assert!(!left, "{quit:?}: the sleep outlived its engine");
        }
    }
}
