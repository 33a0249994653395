use super::*;
use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use proptest::prelude::*;

/// Decodes `pieces` fed one after another, with or without the vector kernel.
fn decode_pieces(pieces: &[&[u8]], simd: bool) -> Result<Vec<u8>, Base64Error> {
    let mut d = Decoder::new();
    if !simd {
        d = d.without_simd();
    }
    for p in pieces {
        d.feed(p)?;
    }
    d.finish()
}

/// Both kernels, whole and split into every pair of pieces at `splits`; all must agree.
fn decode_all_ways(text: &[u8]) -> Result<Vec<u8>, Base64Error> {
    let whole = decode_pieces(&[text], true);
    assert_eq!(
        decode_pieces(&[text], false),
        whole,
        "scalar and vector kernels differ on {:?}",
        String::from_utf8_lossy(text)
    );
    for at in [1, 2, 3, 5, 31, 32, 33, 76, 77, 78, 79, 150] {
        // Pieces from the XML reader never split a character.
        if at < text.len() && std::str::from_utf8(&text[..at]).is_ok() {
            let (a, b) = text.split_at(at);
            assert_eq!(
                decode_pieces(&[a, b], true),
                whole,
                "split at {at} differs on {:?}",
                String::from_utf8_lossy(text)
            );
        }
    }
    whole
}

fn wrap(encoded: &str, columns: &[usize], breaks: &[&str]) -> String {
    let mut out = String::new();
    let mut rest = encoded;
    let mut k = 0;
    while !rest.is_empty() {
        let n = columns[k % columns.len()].min(rest.len());
        out.push_str(&rest[..n]);
        rest = &rest[n..];
        if !rest.is_empty() {
            out.push_str(breaks[k % breaks.len()]);
        }
        k += 1;
    }
    out
}

fn pattern(len: usize) -> Vec<u8> {
    (0..len).map(|i| ((i * 31 + 7) % 251) as u8).collect()
}

#[test]
fn decodes_every_line_shape() {
    for len in [0, 1, 2, 3, 57, 100, 1000, 10_000, 100_003] {
        let data = pattern(len);
        let enc = STANDARD.encode(&data);
        let shapes: [(&[usize], &[&str]); 9] = [
            (&[usize::MAX], &[""]),
            (&[76], &["\r\n"]),
            (&[76], &["\n"]),
            (&[73], &["\r\n"]),
            (&[64], &["\n"]),
            (&[76, 73, 10, 1, 200], &["\r\n", "\n"]),
            (&[4], &["\n"]),
            (&[76], &["\r\n\t  "]),
            (&[75], &[" "]),
        ];
        for (cols, breaks) in shapes {
            let text = format!("\n  {}\r\n", wrap(&enc, cols, breaks));
            let got = decode_all_ways(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(got, data, "len {len}, columns {cols:?}");
        }
    }
}

#[test]
fn character_references_split_the_text() {
    // `&#13;` arrives as its own piece from the XML reader: CR, then LF and the next line.
    let data = pattern(5000);
    let enc = STANDARD.encode(&data);
    let lines: Vec<&str> = enc
        .as_bytes()
        .chunks(76)
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect();
    for simd in [true, false] {
        let mut d = Decoder::new();
        if !simd {
            d = d.without_simd();
        }
        for (k, line) in lines.iter().enumerate() {
            if k > 0 {
                d.feed(b"\r").unwrap();
                d.feed(b"\n").unwrap();
            }
            d.feed(line.as_bytes()).unwrap();
        }
        assert_eq!(d.finish().unwrap(), data);
    }
}

#[test]
fn every_byte_in_every_lane_agrees_with_the_table() {
    // A block of 'A' with one byte replaced, at every position of a 32-character block and past it.
    for b in 0..=255u8 {
        for k in 0..40 {
            let mut text = vec![b'A'; 40];
            text[k] = b;
            let simd = decode_pieces(&[&text], true);
            let scalar = decode_pieces(&[&text], false);
            assert_eq!(simd, scalar, "byte {b:#04x} at {k}");
            let in_alphabet = ALPHABET.contains(&b);
            if in_alphabet {
                let expected = STANDARD.decode(&text).unwrap();
                assert_eq!(simd.unwrap(), expected);
            } else if !matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'=') {
                assert_eq!(
                    simd.unwrap_err(),
                    Base64Error {
                        offset: k,
                        kind: Base64ErrorKind::InvalidCharacter(if b.is_ascii() {
                            char::from(b)
                        } else {
                            char::REPLACEMENT_CHARACTER
                        }),
                    }
                );
            }
        }
    }
}

#[test]
fn errors_carry_offsets_inside_fast_lines() {
    let enc = STANDARD.encode(pattern(57 * 40));
    let mut text = wrap(&enc, &[76], &["\r\n"]).into_bytes();
    // Line 10, column 30: offset 10 * 78 + 30.
    let at = 10 * 78 + 30;
    text[at] = b'*';
    let e = decode_all_ways(&text).unwrap_err();
    assert_eq!(e.offset, at);
    assert_eq!(e.kind, Base64ErrorKind::InvalidCharacter('*'));
    text[at] = b'=';
    let e = decode_all_ways(&text).unwrap_err();
    assert_eq!(
        e,
        Base64Error {
            offset: at + 1,
            kind: Base64ErrorKind::DataAfterPadding { padding_at: at }
        }
    );
}

#[test]
fn padding_rules() {
    let ok = |s: &str| decode_all_ways(s.as_bytes()).unwrap_or_else(|e| panic!("{s:?}: {e}"));
    let err = |s: &str| decode_all_ways(s.as_bytes()).unwrap_err();
    assert_eq!(ok("TQ=="), b"M");
    assert_eq!(ok("TWE="), b"Ma");
    assert_eq!(ok("TQ= =\n"), b"M");
    assert_eq!(ok(""), b"");
    assert_eq!(ok(" \r\n\t"), b"");
    assert_eq!(err("=").kind, Base64ErrorKind::MisplacedPadding);
    assert_eq!(err("T=Q=").offset, 1);
    assert_eq!(err("TQ===").kind, Base64ErrorKind::ExcessPadding);
    assert_eq!(
        err("TQ=").kind,
        Base64ErrorKind::Incomplete {
            chars: 2,
            padding: 1
        }
    );
    assert_eq!(
        err("TWE").kind,
        Base64ErrorKind::Incomplete {
            chars: 3,
            padding: 0
        }
    );
    assert_eq!(
        err("TWFuT").kind,
        Base64ErrorKind::Incomplete {
            chars: 1,
            padding: 0
        }
    );
    let e = err("TWFu TR==");
    assert_eq!((e.offset, e.kind), (6, Base64ErrorKind::NonCanonical('R')));
    let e = err("TQ==TWFu");
    assert_eq!(
        e.to_string(),
        "padding '=' at offset 2 is followed by data at offset 4 ('=' may only end the text)"
    );
    assert_eq!(
        err("QU\u{e9}=").kind,
        Base64ErrorKind::InvalidCharacter('\u{e9}')
    );
}

proptest! {
    #[test]
    fn round_trips_any_bytes_in_any_lines(
        data in proptest::collection::vec(any::<u8>(), 0..3000),
        cols in proptest::collection::vec(1usize..200, 1..5),
        crlf in any::<bool>(),
        split in 0usize..4000,
    ) {
        let enc = STANDARD.encode(&data);
        let text = wrap(&enc, &cols, &[if crlf { "\r\n" } else { "\n" }]);
        let bytes = text.as_bytes();
        let split = split.min(bytes.len());
        for simd in [true, false] {
            let got = decode_pieces(&[&bytes[..split], &bytes[split..]], simd);
            prop_assert_eq!(got.as_deref(), Ok(&data[..]));
        }
    }

    #[test]
    fn agrees_with_a_reference_on_arbitrary_text(text in "[A-Za-z0-9+/= \r\n*]{0,300}") {
        // The reference: strip whitespace, then the strict base64 crate (which also insists on
        // canonical final groups); both accept or both refuse.
        let compact: Vec<u8> = text.bytes().filter(|b| !b" \r\n\t".contains(b)).collect();
        let reference = STANDARD.decode(&compact).ok();
        let ours = decode_all_ways(text.as_bytes()).ok();
        prop_assert_eq!(ours, reference);
    }
}
