//! An engine as a child process: lines to its stdin, its stdout lines through a
//! channel stamped with the instant they were read, its stderr into the log.
//!
//! Everything the referee knows about time comes from these stamps, so a reply
//! is timed when it arrived, not when a busy referee thread got round to it.
//! Waiting is always bounded by a deadline and watches the match's stop flag,
//! so neither a silent engine nor Ctrl-C can hang the referee. Dropping the
//! process kills it and reaps it: no engine outlives its match.

use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};

use crate::protocol::{InputLine, read_line};

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
    /// The match is being stopped.
    Interrupted,
}

/// A running engine process.
pub struct EngineProcess {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Option<(Instant, String)>>,
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
        // and when they stop, and no engine dies mid-game looking like a crash.
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
                let text = match line {
                    InputLine::Text(text) => text,
                    InputLine::TooLong(n) => format!("<a line of {n} bytes>"),
                    InputLine::NotUtf8 => "<a line that is not UTF-8>".to_string(),
                };
                log::trace!("{label} < {text}");
                if tx.send(Some((Instant::now(), text))).is_err() {
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
    /// The engine no longer reads its input (it has exited); the detail says how.
    pub fn send(&mut self, line: &str) -> Result<Instant, String> {
        log::trace!("{} > {line}", self.name);
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| "its input is closed".to_string())?;
        match stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| stdin.flush())
        {
            Ok(()) => Ok(Instant::now()),
            Err(e) => {
                self.stdin = None;
                Err(format!("{} (writing '{line}': {e})", self.exit_detail()))
            }
        }
    }

    /// The next line the engine writes, with the instant it was read, if it
    /// comes before `deadline`.
    ///
    /// # Errors
    /// The deadline passed, the engine closed its output, or the match is
    /// being stopped.
    pub fn next_line(&mut self, deadline: Instant) -> Result<(Instant, String), WaitError> {
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return Err(WaitError::Interrupted);
            }
            let now = Instant::now();
            if now >= deadline {
                // A line already waiting counts if it was read in time.
                return match self.lines.try_recv() {
                    Ok(Some((at, line))) if at <= deadline => Ok((at, line)),
                    _ => Err(WaitError::Timeout),
                };
            }
            match self.lines.recv_timeout((deadline - now).min(STOP_POLL)) {
                Ok(Some(line)) => return Ok(line),
                Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(WaitError::Closed(self.exit_detail()));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// How the process ended, for messages: its exit status if it has exited
    /// (waiting briefly for it), else that it closed its output.
    fn exit_detail(&mut self) -> String {
        let deadline = Instant::now() + QUIT_GRACE;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return describe_exit(status),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                Ok(None) => return "it closed its output".to_string(),
                Err(e) => return format!("its state is unknown ({e})"),
            }
        }
    }

    /// Says `quit_line` (if any), gives the engine a moment to exit, then kills
    /// it. Dropping does the same without the polite word.
    pub fn shut_down(&mut self, quit_line: Option<&str>) {
        if let Some(line) = quit_line
            && self.send(line).is_ok()
        {
            self.stdin = None;
            let deadline = Instant::now() + QUIT_GRACE;
            while Instant::now() < deadline {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                thread::sleep(Duration::from_millis(5));
            }
        }
        self.kill();
    }

    fn kill(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
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
        let mut p = sh("read x; echo \"got $x\"; sleep 5");
        let sent = p.send("hello").unwrap();
        let (at, line) = p.next_line(sent + Duration::from_secs(5)).unwrap();
        assert_eq!(line, "got hello");
        assert!(at >= sent);
        let soon = Instant::now() + Duration::from_millis(50);
        assert_eq!(p.next_line(soon), Err(WaitError::Timeout));

        let mut p = sh("exit 3");
        let far = Instant::now() + Duration::from_secs(5);
        assert_eq!(
            p.next_line(far),
            Err(WaitError::Closed("it exited with status 3".into()))
        );
        assert!(p.send("anything").is_err() || p.send("again").is_err());
    }

    #[test]
    fn stop_flag_ends_a_wait() {
        let mut p = sh("sleep 5");
        p.stop.store(true, Ordering::Relaxed);
        let far = Instant::now() + Duration::from_secs(5);
        let started = Instant::now();
        assert_eq!(p.next_line(far), Err(WaitError::Interrupted));
        assert!(started.elapsed() < Duration::from_secs(1));
    }

    #[test]
    fn drop_kills() {
        let p = sh("sleep 30");
        let started = Instant::now();
        drop(p);
        assert!(started.elapsed() < Duration::from_secs(2));
    }
}
