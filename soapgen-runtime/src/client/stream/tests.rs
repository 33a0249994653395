use super::window::{char_count, ends_within, tag_end};

#[test]
fn a_cut_markup_construct_is_not_taken_for_a_wrong_one() {
    for cut in [
        "", "  \r\n", "<", "<tns:it", "<a b='>", "<a>text", "<a><b/>", "<!", "<!-", "<!--",
        "<!-- c -", "<![CDAT", "<?pi", "</a", "<a>x</a",
    ] {
        assert!(!ends_within(cut), "{cut:?}");
    }
    for whole in [
        "<a/>",
        " <a b='>'>x</a> rest",
        "<!-- c --><a/>",
        "</a>",
        "<a><b></b></a>",
        "x<a/>",
        "<!DOCTYPE a>",
        "<?pi x?>\n<a>&amp;</a>",
    ] {
        assert!(ends_within(whole), "{whole:?}");
    }
}

#[test]
fn a_start_tags_end_skips_quoted_values() {
    assert_eq!(tag_end(b"<a x=\"1>2\" y='>'/>rest"), Some((18, true)));
    assert_eq!(tag_end(b"<a>"), Some((3, false)));
    assert_eq!(tag_end(b"<a x=\"1>"), None);
}

#[test]
fn characters_are_counted_not_bytes() {
    assert_eq!(char_count("Größe ✓ 𝄞".as_bytes()), 9);
}
