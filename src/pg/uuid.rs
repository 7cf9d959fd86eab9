//! UUIDs: stored as lowercase hyphenated text, sent as 16 bytes in binary.

/// Reads a UUID written with or without hyphens or braces, in any case.
pub fn parse(text: &str) -> Option<[u8; 16]> {
    let text = text.trim();
    let text = text
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .unwrap_or(text);
    let mut nibbles = text.bytes().filter(|b| *b != b'-').map(hex_value);
    let mut bytes = [0u8; 16];
    for byte in &mut bytes {
        *byte = (nibbles.next()?? << 4) | nibbles.next()??;
    }
    nibbles.next().is_none().then_some(bytes)
}

/// The canonical form PostgreSQL prints: `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`.
pub fn format(bytes: &[u8; 16]) -> String {
    let mut out = String::with_capacity(36);
    for (i, byte) in bytes.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            out.push('-');
        }
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

fn hex_value(digit: u8) -> Option<u8> {
    char::from(digit)
        .to_digit(16)
        .and_then(|d| u8::try_from(d).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    const CANONICAL: &str = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11";

    #[test]
    fn accepts_common_spellings() {
        for text in [
            CANONICAL,
            "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11",
            "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}",
            "a0eebc999c0b4ef8bb6d6bb9bd380a11",
            " a0eebc99-9c0b4ef8-bb6d6bb9-bd380a11 ",
        ] {
            assert_eq!(
                parse(text).map(|b| format(&b)),
                Some(CANONICAL.into()),
                "{text}"
            );
        }
        let bytes = parse(CANONICAL).unwrap();
        assert_eq!(bytes[0], 0xa0);
        assert_eq!(bytes[15], 0x11);
    }

    #[test]
    fn refuses_wrong_lengths_and_digits() {
        for bad in [
            "",
            "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1",
            "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a111",
            "g0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
            "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }
}
