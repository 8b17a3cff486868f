//! The clocks hookc reads: the wall clock (the calendar day waivers are judged by, the audit
//! record's time), a monotonic one (the time a call has spent compiling patterns), and the time
//! spent waiting on something outside ([`Stopwatch`]: a transcript the agent is still writing).
//! WebAssembly in a browser has no system clock, and Rust's panics there: both are JavaScript's
//! `Date.now()` on that target.
//!
//! **The test clock** (the `test-clock` feature, which hookc's own tests build with, in a build
//! with debug assertions: never an optimised one, whatever built it): with `HOOKC_TEST_CLOCK` set in its environment, a process's waits pass in no time,
//! each adding its length to the time [`Stopwatch`]es read (on top of the time the work between
//! them really took), and the command line reports the total on exit (`hookc: test clock: waited
//! 2480 ms`). A test then asserts whether and how long hookc waited, rather than timing a call on
//! a machine that may be loaded, and sleeps through none of it.

/// The wall clock, now.
pub fn system_now() -> std::time::SystemTime {
    #[cfg(not(browser))]
    return std::time::SystemTime::now();
    #[cfg(browser)]
    {
        let millis = js_sys::Date::now();
        // `Date.now()` is whole milliseconds since 1970; a clock set before then is 1970.
        std::time::UNIX_EPOCH + std::time::Duration::from_millis(if millis > 0.0 { millis as u64 } else { 0 })
    }
}

/// A point in time to measure a budget from. `std::time::Instant` except in a browser, where it
/// is the wall clock (JavaScript's only clock without `performance`).
#[cfg(not(browser))]
pub type Instant = std::time::Instant;

/// A point in time to measure a budget from: in a browser, the wall clock.
#[cfg(browser)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Instant(std::time::SystemTime);

#[cfg(browser)]
impl Instant {
    /// Now.
    pub fn now() -> Instant {
        Instant(system_now())
    }

    /// The time since `self` (zero if the clock went back).
    pub fn elapsed(&self) -> std::time::Duration {
        system_now().duration_since(self.0).unwrap_or_default()
    }
}

#[cfg(browser)]
impl std::ops::Add<std::time::Duration> for Instant {
    type Output = Instant;

    fn add(self, duration: std::time::Duration) -> Instant {
        Instant(self.0 + duration)
    }
}

/// Whether this process runs on the test clock (module docs). A build with debug assertions
/// only: `cargo test --release` and `cargo bench` build the binary with the tests' features too.
#[cfg(all(feature = "test-clock", debug_assertions))]
pub fn is_test() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("HOOKC_TEST_CLOCK").is_some())
}

/// Whether this process runs on the test clock: never, without the `test-clock` feature, or in
/// an optimised build.
#[cfg(not(all(feature = "test-clock", debug_assertions)))]
pub fn is_test() -> bool {
    false
}

/// Nanoseconds waited on the test clock, by every stopwatch of the process.
static WAITED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// What this process has waited on the test clock (zero on the real one).
pub fn waited() -> std::time::Duration {
    std::time::Duration::from_nanos(WAITED.load(std::sync::atomic::Ordering::Relaxed))
}

/// The time spent waiting on something outside hookc, and the waits: the monotonic clock and
/// real sleeps, or on the test clock the sum of its waits, which take no time.
#[derive(Debug)]
pub struct Stopwatch {
    started: Instant,
    waited: std::time::Duration,
}

impl Stopwatch {
    /// A stopwatch from now.
    pub fn start() -> Stopwatch {
        Stopwatch { started: Instant::now(), waited: std::time::Duration::ZERO }
    }

    /// The time since [`Stopwatch::start`]: on the test clock, and in a browser, with the waits
    /// it skipped.
    pub fn elapsed(&self) -> std::time::Duration {
        match skips_waits() {
            true => self.started.elapsed() + self.waited,
            false => self.started.elapsed(),
        }
    }

    /// Waits this long. On the test clock it counts the wait and returns at once; in a browser,
    /// which has no thread to sleep (and nothing to wait for: its file system is off), it
    /// returns at once.
    pub fn wait(&mut self, duration: std::time::Duration) {
        self.waited += duration;
        if is_test() {
            let nanos = u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX);
            WAITED.fetch_add(nanos, std::sync::atomic::Ordering::Relaxed);
        } else {
            #[cfg(not(browser))]
            std::thread::sleep(duration);
        }
    }
}

/// Whether a wait passes in no time: on the test clock, and in a browser.
fn skips_waits() -> bool {
    cfg!(browser) || is_test()
}
