//! `PortPolicy::find` and `find_among`: the errors a generated client's `port_policy` gives.

use super::model::PortPolicy;

#[test]
fn a_port_configured_by_hand_is_named_as_such() {
    let e = PortPolicy::find_among(&[], &["Manual"], "Manual").unwrap_err();
    assert!(e.manual);
    assert!(
        e.to_string().contains("configured by hand")
            && e.to_string().contains("ClientBuilder::wss"),
        "{e}"
    );
    let e = PortPolicy::find_among(&[], &["Manual"], "Other").unwrap_err();
    assert!(!e.manual);
    assert!(
        e.to_string()
            .starts_with("no WS-SecurityPolicy for port \"Other\""),
        "{e}"
    );
}
