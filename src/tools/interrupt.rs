//! The tools that stop cleanly (`datagen`, `train`, `watch`) stop so at Ctrl-C, and also when
//! asked to end in another way: SIGTERM (`kill`, a service manager, a container's stop) and
//! SIGHUP (the terminal closed) on Linux and macOS, through the `ctrlc` crate's `termination`
//! feature (issue 106). On Windows the crate's handler already takes every console event.
//! Stopping cleanly is what saves the work: `watch`'s page and PGN, `train`'s checkpoint.
//!
//! A SIGHUP that the program was started ignoring stays ignored: `nohup` ignores it so that a
//! long `datagen` outlives its terminal, and the crate would take it over.

/// Run `stop` at Ctrl-C, SIGTERM or SIGHUP. One handler a process: a second call fails.
pub fn on_interrupt(stop: impl FnMut() + Send + 'static) -> Result<(), ctrlc::Error> {
    let nohup = hangup_ignored();
    ctrlc::set_handler(stop)?;
    if nohup {
        ignore_hangup();
    }
    Ok(())
}

#[cfg(unix)]
fn hangup_ignored() -> bool {
    // SAFETY: reads SIGHUP's disposition into a zeroed `sigaction` of our own; changes nothing.
    unsafe {
        let mut now: libc::sigaction = std::mem::zeroed();
        libc::sigaction(libc::SIGHUP, std::ptr::null(), &mut now) == 0
            && now.sa_sigaction == libc::SIG_IGN
    }
}

#[cfg(unix)]
fn ignore_hangup() {
    // SAFETY: sets SIGHUP's disposition to ignore, as it was; touches no memory of the program.
    unsafe {
        libc::signal(libc::SIGHUP, libc::SIG_IGN);
    }
}

#[cfg(not(unix))]
fn hangup_ignored() -> bool {
    false
}

#[cfg(not(unix))]
fn ignore_hangup() {}
