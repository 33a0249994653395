//! Broken and hostile responses: each is a clear, typed error within bounded time and memory,
//! never a panic and never a partial value.

mod bad_input;
mod hostile_input;
