//! CPU priority of background threads: work nobody waits for (webhook deliveries) yields the
//! processor to request handling when both want it.

/// The highest nice value (the lowest priority) Linux has.
const LOWEST: i32 = 19;

/// Raises the calling thread's nice value by `steps` (at most to 19): the thread alone, and
/// threads it starts later, run less under contention. Lowering a priority needs no privilege,
/// and counting from the current value keeps the order of a service started with `Nice=`.
#[cfg(target_os = "linux")]
pub fn lower_this_thread(steps: i32) -> std::io::Result<()> {
    let nice = (nice_of_this_thread()? + steps).min(LOWEST);
    // On Linux a nice value belongs to a thread: PRIO_PROCESS with a thread id sets that
    // thread's alone (see setpriority(2), "BUGS").
    // SAFETY: a plain system call on the calling thread's id, with no pointers.
    let done = unsafe { libc::setpriority(libc::PRIO_PROCESS, this_thread(), nice) };
    if done == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Elsewhere the priority is left as it is.
#[cfg(not(target_os = "linux"))]
pub fn lower_this_thread(_steps: i32) -> std::io::Result<()> {
    Ok(())
}

#[cfg(target_os = "linux")]
fn this_thread() -> libc::id_t {
    // SAFETY: gettid has no arguments and cannot fail.
    let id = unsafe { libc::gettid() };
    id as libc::id_t
}

/// The calling thread's nice value.
#[cfg(target_os = "linux")]
fn nice_of_this_thread() -> std::io::Result<i32> {
    // getpriority may answer -1 as a value: errno, cleared first, tells an error apart.
    // SAFETY: errno is this thread's; the call takes no pointers.
    unsafe {
        *libc::__errno_location() = 0;
        let nice = libc::getpriority(libc::PRIO_PROCESS, this_thread());
        match *libc::__errno_location() {
            0 => Ok(nice),
            code => Err(std::io::Error::from_raw_os_error(code)),
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn only_the_calling_thread_and_threads_it_starts_are_lowered() {
        let before = nice_of_this_thread().unwrap();
        let expected = (before + 10).min(LOWEST);
        let (lowered, started_after) = std::thread::spawn(|| {
            lower_this_thread(10).unwrap();
            let started_after = std::thread::spawn(|| nice_of_this_thread().unwrap());
            (
                nice_of_this_thread().unwrap(),
                started_after.join().unwrap(),
            )
        })
        .join()
        .unwrap();
        assert_eq!((lowered, started_after), (expected, expected));
        assert_eq!(
            nice_of_this_thread().unwrap(),
            before,
            "the other threads keep their priority"
        );
    }
}
