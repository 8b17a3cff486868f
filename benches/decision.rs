//! Placeholder until the decision benchmark lands.
fn main() {}
