//! Numbers in `go`: integers read without ever overflowing, saturated to the range a key
//! allows, with a problem for anything odd. Times may carry a decimal fraction (`wtime
//! 1000.5`): they are milliseconds, and the fraction is dropped (truncated toward zero).

use super::{echo, Problems};

/// An integer token, read without ever overflowing.
enum Number {
    /// Fits in a `u64` magnitude. `negative` is false for `-0`.
    Value { negative: bool, magnitude: u64 },
    /// Magnitude beyond `u64::MAX`.
    TooBig { negative: bool },
    /// Not an optionally signed run of ASCII digits.
    Invalid,
}

/// `fraction`: accept digits after one `.` (at least one on each side) and drop them.
fn parse_number(token: &str, fraction: bool) -> Number {
    let (negative, digits) = match token.as_bytes().first() {
        // The first byte is ASCII, so slicing after it is on a char boundary.
        Some(b'-') => (true, &token[1..]),
        Some(b'+') => (false, &token[1..]),
        _ => (false, token),
    };
    let digits = match digits.split_once('.') {
        Some((whole, part))
            if fraction && !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) =>
        {
            whole
        }
        _ => digits,
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Number::Invalid;
    }
    let mut magnitude: u64 = 0;
    for b in digits.bytes() {
        match magnitude
            .checked_mul(10)
            .and_then(|m| m.checked_add(u64::from(b - b'0')))
        {
            Some(m) => magnitude = m,
            None => return Number::TooBig { negative },
        }
    }
    Number::Value {
        negative: negative && magnitude != 0,
        magnitude,
    }
}

/// What a key accepts.
#[derive(Clone, Copy)]
pub(super) enum Wanted {
    /// Any `i64` of milliseconds, a fraction dropped (clock times, which a GUI may send
    /// negative).
    Millis,
    /// `0..=max`; a negative value is reported and ignored.
    NonNegative(u64),
    /// `0..=u64::MAX` milliseconds, a fraction dropped; a negative value is reported and
    /// ignored (movetime).
    NonNegativeMillis,
}

/// Reads the value of key `name`. Values beyond the allowed range saturate to its bound (and
/// are reported); a missing or malformed value, or a negative one where none is allowed, is
/// reported and gives None.
pub(super) fn read_integer(
    name: &str,
    value: Option<&str>,
    wanted: Wanted,
    problems: &mut Problems,
) -> Option<i128> {
    let (what, min, max, fraction) = match wanted {
        Wanted::Millis => (
            "an integer",
            i128::from(i64::MIN),
            i128::from(i64::MAX),
            true,
        ),
        Wanted::NonNegative(max) => ("a non-negative integer", 0, i128::from(max), false),
        Wanted::NonNegativeMillis => ("a non-negative integer", 0, i128::from(u64::MAX), true),
    };
    let Some(token) = value else {
        problems.push(format!("go: '{name}' needs {what}, got nothing"));
        return None;
    };
    let wide = match parse_number(token, fraction) {
        Number::Invalid => {
            problems.push(format!("go: '{name}' needs {what}, got '{}'", echo(token)));
            return None;
        }
        Number::TooBig { negative: true } => i128::MIN,
        Number::TooBig { negative: false } => i128::MAX,
        Number::Value {
            negative,
            magnitude,
        } => {
            let m = i128::from(magnitude);
            if negative {
                -m
            } else {
                m
            }
        }
    };
    if wide < 0 && min == 0 {
        problems.push(format!("go: negative {name} {} ignored", echo(token)));
        return None;
    }
    let clamped = wide.clamp(min, max);
    if clamped != wide {
        problems.push(format!(
            "go: {name} {} out of range, clamped to {clamped}",
            echo(token)
        ));
    }
    Some(clamped)
}
