//! The clocks hookc reads: the wall clock (the calendar day waivers are judged by, the audit
//! record's time) and a monotonic one (the time a call has spent compiling patterns, reading a
//! transcript). WebAssembly in a browser has no system clock, and Rust's panics there: both are
//! JavaScript's `Date.now()` on that target.

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
