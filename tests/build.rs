//! Generates clients, at build time, from WSDLs published by the real peers: spyne's own `?wsdl`
//! (SOAP 1.1 and 1.2, as captured in tests/peers/captures/spyne, and checked against the live server
//! by tests/tests/mapping/generated_clients.rs) and the real-world GlobalWeather WSDL that the gSOAP peer is
//! built from; the MTOM WSDL the gSOAP MTOM peer and the line-break peer implement; the SOAP with
//! Attachments WSDL of the gSOAP SwA peer; the rpc/encoded WSDL of the gSOAP encoded peer; a WSDL 2.0
//! description of the gSOAP echo peer's service; the model-group cases (wsdl/groups.wsdl:
//! repeated choices and sequences); input messages with no parts (wsdl/noparts.wsdl); substitution
//! groups and abstract elements (wsdl/substitution.wsdl); type substitution with `xsi:type`
//! (wsdl/polymorphism.wsdl); one echo operation per XSD kind (wsdl/kinds.wsdl), which
//! the gSOAP kinds peer implements; the remaining cases (wsdl/cases/: a nested relative
//! include, a cycle of includes, unqualified local elements, a schema without targetNamespace,
//! xmime attributes without the xmime schema, elements without a type, a SOAP 1.2 fault with a
//! Subcode chain, repeated fields with minOccurs above 0); building values with `Default`, `new` and
//! `.into()` (wsdl/cases/values.wsdl); five operations of the e-conomic WSDL in the corpus, selected
//! (`Builder::operations`); the operations the real-services tests call of Exchange Web Services,
//! PayPal, Amazon EC2 and an ONVIF camera's device service, each selected likewise; WS-Addressing from the WSDL: the gSOAP WS-Addressing peer's service
//! (peers/gsoap/wsa/addressing.wsdl, and in WSDL 2.0 addressing20.wsdl) and a WCF wsHttpBinding
//! WSDL of the corpus; SOAP 1.2's SOAP-response message exchange pattern, a GET, in WSDL 2.0
//! (wsdl/soap_response.wsdl, served by the spyne peer).

/// A WCF service's WSDL (svcutil's flattened form): a basicHttpBinding (SOAP 1.1) and a
/// wsHttpBinding (SOAP 1.2) whose policy holds `wsaw:UsingAddressing`, with `wsaw:Action`s.
const PARTNER: &str = "corpus/wsdltophp/tests/resources/partner/PartnerService.local.wsdl";

fn main() {
    let b = soapgen_build::Builder::new()
        .wsdl("peers/captures/spyne/soap11.wsdl")
        .out_name("peers/captures/spyne/soap11.wsdl", "spyne11")
        .wsdl("peers/captures/spyne/soap12.wsdl")
        .out_name("peers/captures/spyne/soap12.wsdl", "spyne12")
        .wsdl("../examples/wsdl/globalweather.wsdl")
        .wsdl("peers/gsoap/echo.wsdl")
        .wsdl("peers/gsoap/echo20.wsdl")
        .wsdl("peers/gsoap/mtom/mtom.wsdl")
        .wsdl("peers/gsoap/swa/swa.wsdl")
        .wsdl("peers/gsoap/encoded/encoded.wsdl")
        .wsdl("wsdl/groups.wsdl")
        .wsdl("wsdl/noparts.wsdl")
        .wsdl("wsdl/substitution.wsdl")
        .wsdl("wsdl/polymorphism.wsdl")
        .wsdl("wsdl/kinds.wsdl")
        .wsdl("wsdl/large_objects.wsdl")
        .wsdl("peers/gsoap/wsse/wsse.wsdl")
        .wsdl("corpus/onvif/wsdl/ver10/pacs/doorcontrol.wsdl")
        .wsdl("wsdl/cases/nested_include/nested_include.wsdl")
        .wsdl("wsdl/cases/include_cycle/include_cycle.wsdl")
        .wsdl("wsdl/cases/unqualified.wsdl")
        .wsdl("wsdl/cases/no_namespace.wsdl")
        .wsdl("wsdl/cases/xmime.wsdl")
        .wsdl("wsdl/cases/any_type.wsdl")
        .wsdl("wsdl/cases/subcode.wsdl")
        .wsdl("wsdl/cases/min_occurs.wsdl")
        .wsdl("wsdl/cases/values.wsdl")
        .wsdl("peers/gsoap/wsa/addressing.wsdl")
        .wsdl("peers/gsoap/wsa/addressing20.wsdl")
        .wsdl("wsdl/soap_response.wsdl")
        .wsdl(PARTNER)
        .out_name(PARTNER, "partner")
        // Every client with its in-process fake: each must compile (tests/tests/mapping/fake.rs
        // calls some).
        .fake(soapgen_build::Fake::Always);
    if let Err(e) = b.build() {
        panic!("soapgen: {e}");
    }
    // Five operations of e-conomic (1,511 operations), only the types they reach: the selection
    // compiles (tests/tests/mapping/selection.rs).
    let economic = "corpus/wasabi/spec/fixtures/economic.wsdl";
    let five = soapgen_build::Builder::new()
        .wsdl(economic)
        .out_name(economic, "economic5")
        .operations([
            "Connect",
            "Debtor_GetAll",
            "Debtor_GetData",
            "Debtor_FindByName",
            "Invoice_GetData",
        ]);
    if let Err(e) = five.build() {
        panic!("soapgen: {e}");
    }
    // Exchange Web Services' FindItem (and the 1,131 types it reaches): calls shaped as EWS users
    // write them, against a response shaped as Exchange sends it (tests/tests/mapping/real_services.rs).
    let ews = "corpus/wsdltophp/tests/resources/ews/services.wsdl";
    let find_item = soapgen_build::Builder::new()
        .wsdl(ews)
        .out_name(ews, "ews")
        .operations(["FindItem"]);
    if let Err(e) = find_item.build() {
        panic!("soapgen: {e}");
    }
    // More of the corpus's public APIs, each with the operations its real-services test calls
    // and the types they reach (tests/tests/mapping/real_services.rs).
    for (wsdl, name, operations) in [
        (
            "corpus/wsdltophp/tests/resources/paypal/PayPalSvc.wsdl",
            "paypal",
            &["GetBalance", "GetTransactionDetails"][..],
        ),
        (
            "corpus/gowsdl/fixtures/ec2.wsdl",
            "ec2",
            &["DescribeInstances"][..],
        ),
        (
            "corpus/onvif/wsdl/ver10/device/wsdl/devicemgmt.wsdl",
            "onvif_device",
            &["GetDeviceInformation", "GetCapabilities"][..],
        ),
    ] {
        let b = soapgen_build::Builder::new()
            .wsdl(wsdl)
            .out_name(wsdl, name)
            .operations(operations.iter().copied());
        if let Err(e) = b.build() {
            panic!("soapgen: {e}");
        }
    }
    cxf_policy();
    cxf_matrix();
}

/// Every port of the policy corpus whose WS-SecurityPolicy soapgen applies, of the DoubleIt
/// portType: for each WSDL of the corpus, the client of those ports (`cxf_m{i}.rs`), and
/// `cxf_matrix.rs`, which lists them with a call of `DoubleIt` through each
/// (tests/tests/wss/policy_matrix.rs).
fn cxf_matrix() {
    use std::fmt::Write as _;
    let resources = std::path::Path::new("../../shared/corpus/cxf-policy/src/test/resources");
    let logical = resources.join("DoubleItLogical.wsdl");
    let mut wsdls = Vec::new();
    let mut dirs = vec![resources.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).expect("the policy corpus") {
            let p = e.expect("a corpus entry").path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "wsdl") {
                wsdls.push(p);
            }
        }
    }
    wsdls.sort();
    // Combinations the corpus lacks, in the corpus's form (its DoubleIt portType imported).
    let own = std::path::Path::new("wsdl/policy");
    println!("cargo:rerun-if-changed={}", own.display());
    let mut own_wsdls: Vec<_> = std::fs::read_dir(own)
        .expect("tests/wsdl/policy")
        .map(|e| e.expect("an entry of tests/wsdl/policy").path())
        .filter(|p| p.extension().is_some_and(|x| x == "wsdl"))
        .collect();
    own_wsdls.sort();
    wsdls.extend(own_wsdls);
    let builder = |wsdl: &std::path::Path| {
        soapgen_build::Builder::new()
            .wsdl(wsdl)
            .catalog_entry("src/test/resources/DoubleItLogical.wsdl", &logical)
    };
    let mut modules = String::new();
    let mut entries = String::new();
    let mut files = Vec::new();
    for wsdl in &wsdls {
        let Ok(g) = builder(wsdl).manual_security(["*"]).generate_one(wsdl) else {
            continue;
        };
        let ports: Vec<String> = g
            .module
            .clients
            .iter()
            .filter(|c| answer((&c.port_type.ns, &c.port_type.local)).is_some())
            .flat_map(|c| &c.ports)
            // The peer publishes the services of the file it is given, not of its imports.
            .filter(|p| {
                std::fs::canonicalize(&*p.loc.file).ok() == std::fs::canonicalize(wsdl).ok()
            })
            .filter(|p| {
                p.security.as_ref().is_some_and(|s| {
                    s.operations.iter().all(|o| {
                        (o.input.is_unsecured() || o.input.chosen().is_some())
                            && (o.output.is_unsecured() || o.output.chosen().is_some())
                    })
                })
            })
            .map(|p| p.port.clone())
            .collect();
        if ports.is_empty() {
            continue;
        }
        let i = files.len();
        let name = format!("cxf_m{i}");
        let b = builder(wsdl).out_name(wsdl, &name).ports(ports.iter());
        let g = match b.generate_one(wsdl) {
            Ok(g) => g,
            Err(e) => panic!("soapgen: {e}"),
        };
        // Quietly: the corpus's warnings are its own (docs/ws-security-policy-corpus.md lists
        // them); cxf_policy() reruns this script when the corpus changes.
        let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
        if let Err(e) = b.write_to(&out, false) {
            panic!("soapgen: {e}");
        }
        // Where the peer finds it (`soapgen_tests::peers::cxf_policy_wsdls`).
        let rel = match wsdl.strip_prefix(resources) {
            Ok(rel) => rel.display().to_string(),
            Err(_) => format!(
                "{OWN_PREFIX}{}",
                wsdl.file_name().expect("a file name").to_string_lossy()
            ),
        };
        let stem = wsdl
            .file_stem()
            .expect("a file name")
            .to_string_lossy()
            .into_owned();
        let _ = writeln!(
            modules,
            "pub mod m{i} {{ soapgen_runtime::include_client!({name:?}); }}"
        );
        for c in &g.module.clients {
            let client = format!("m{i}::{}Client", c.name);
            let (answer, call) =
                answer((&c.port_type.ns, &c.port_type.local)).expect("a portType of the matrix");
            let call = call
                .replace("CLIENT", &client)
                .replace("TYPES", &format!("m{i}::types"));
            for p in &c.ports {
                let port = &p.port;
                // What `soapgen inspect` lists: the setters' names.
                let credentials: Vec<String> = p
                    .security
                    .as_ref()
                    .map(soapgen_build::model::security::describe::credentials)
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|c| {
                        let (_, after) = c
                            .split_once("(Credentials::")
                            .or_else(|| c.split_once("(ClientBuilder::"))?;
                        let name: String = after
                            .chars()
                            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                            .collect();
                        Some(format!("{name:?}"))
                    })
                    .collect();
                let credentials = credentials.join(", ");
                let _ = writeln!(
                    entries,
                    "        MatrixPort {{ wsdl: {rel:?}, path: concat!(\"/\", {stem:?}, \"/\", {port:?}), port: {port:?}, \
                     policy: {client}::port_policy({port:?}).expect(\"generated\"), answer: Answer::{answer}, \
                     credentials: &[{credentials}], \
                     call: |c, n| ::std::boxed::Box::pin(async move {{ {call} }}) }},"
                );
            }
        }
        files.push(rel);
    }
    let list: Vec<String> = files.iter().map(|f| format!("{f:?}")).collect();
    let text = format!(
        "// Written by tests/build.rs: the ports of the policy corpus whose policy soapgen applies.\n\
         /// The corpus WSDLs with such ports, relative to its `src/test/resources`.\n\
         pub const WSDLS: &[&str] = &[{}];\n{modules}\n\
         /// Every port, with its generated policy and a call of its operation through its client.\n\
         pub fn ports() -> Vec<MatrixPort> {{\n    vec![\n{entries}    ]\n}}\n",
        list.join(", ")
    );
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    std::fs::write(out.join("cxf_matrix.rs"), text).expect("write cxf_matrix.rs");
}

/// The prefix of the matrix's own policy WSDLs (`tests/wsdl/policy/`) among the corpus paths the
/// CXF peer is given; `soapgen_tests::peers::OWN_POLICY_WSDLS` is the same.
const OWN_PREFIX: &str = "soapgen:";

/// How the matrix calls a port of `port_type` (the operations CXF's peer serves): what it
/// answers (`Answer` of tests/tests/wss/policy_matrix.rs) and the call of `CLIENT` with the
/// number `n`, giving `Result<Option<i32>, String>`.
fn answer((ns, port_type): (&str, &str)) -> Option<(&'static str, &'static str)> {
    Some(match port_type {
        "DoubleItPortType" | "DoubleItPortType2" => (
            "Doubled",
            "CLIENT::from_client(c).double_it(n).await.map(Some).map_err(|e| e.to_string())",
        ),
        "DoubleItMtomPortType" => (
            "Doubled",
            "CLIENT::from_client(c).double_it4(n, ::soapgen_runtime::types::Base64Binary::from(vec![1u8, 2, 3])).await\
             .map(Some).map_err(|e| e.to_string())",
        ),
        // SwA: an attachment that starts with the number, as the peer checks, and 8 KiB of
        // every byte value after it.
        "DoubleItSwaPortType" => (
            "Doubled",
            "CLIENT::from_client(c).double_it3(n, ::soapgen_runtime::mime::Attachment::new(\"image/jpeg\", \
             format!(\"{n} \").into_bytes().into_iter().chain((0..8192u32).map(|i| i as u8)).collect::<Vec<u8>>()))\
             .await.map(Some).map_err(|e| e.to_string())",
        ),
        "DoubleItOneWayPortType" => (
            "Nothing",
            "CLIENT::from_client(c).double_it(n).await.map(|()| None).map_err(|e| e.to_string())",
        ),
        // WCF's WS-SecureConversation interop services: Ping's text comes back.
        "IPingService" if ns == "http://WSSec/wssc" => (
            "Echoed",
            "{ let ping = |s: &str| ::soapgen_runtime::types::Nillable::from(s.to_owned()); \
             CLIENT::from_client(c).ping(TYPES::PingRequest { ping: Some(TYPES::Ping::new(\
             ping(\"soapgen\"), ping(\"matrix\"), ping(&n.to_string()))) }).await\
             .map_err(|e| e.to_string())\
             .and_then(|r| r.ping_response.and_then(|p| p.text.into_option()).ok_or(\"no text\".to_owned()))\
             .and_then(|r| r.parse().map(Some).map_err(|e| format!(\"text {r:?}: {e}\"))) }",
        ),
        "IPingService" => (
            "Echoed",
            "CLIENT::from_client(c).echo(n.to_string().into()).await.map_err(|e| e.to_string())\
             .and_then(|r| r.into_option().ok_or(\"no echoResult\".to_owned()))\
             .and_then(|r| r.parse().map(Some).map_err(|e| format!(\"echoResult {r:?}: {e}\")))",
        ),
        _ => return None,
    })
}

/// Clients of Apache CXF's WS-SecurityPolicy test WSDLs (the policy corpus beside the
/// repository), for the ports the CXF peer enforces and soapgen applies
/// (tests/tests/wss/policy_driven.rs). The corpus's WSDLs import their portType from a path
/// relative to CXF's Maven module: a catalog entry maps it.
fn cxf_policy() {
    let resources = "../../shared/corpus/cxf-policy/src/test/resources";
    let logical = format!("{resources}/DoubleItLogical.wsdl");
    println!("cargo:rerun-if-changed={resources}");
    let x509 = format!("{resources}/org/apache/cxf/systest/ws/x509/DoubleItX509.wsdl");
    let ut = format!("{resources}/org/apache/cxf/systest/ws/ut/DoubleItUt.wsdl");
    let swa = format!("{resources}/org/apache/cxf/systest/ws/swa/DoubleItSwa.wsdl");
    for (wsdl, name, ports) in [
        (
            &x509,
            "cxf_x509",
            &[
                "DoubleItAsymmetricIssuerSerialPort",
                "DoubleItAsymmetricThumbprintPort",
                "DoubleItAsymmetricSHA256Port",
                "DoubleItAsymmetricEncryptBeforeSigningPort",
                "DoubleItTransportEndorsingPort",
                "DoubleItAsymmetricEncryptSignaturePort",
                "DoubleItAsymmetricProtectTokensPort",
                "DoubleItKeyIdentifierPort",
                "DoubleItSymmetricProtectTokensPort",
            ][..],
        ),
        (
            &ut,
            "cxf_ut",
            &["DoubleItPlaintextPort", "DoubleItHashedPort"][..],
        ),
        (
            &swa,
            "cxf_swa",
            &[
                "DoubleItSWASignatureCompletePolicyPort",
                "DoubleItSWAEncryptionPolicyPort",
            ][..],
        ),
    ] {
        let b = soapgen_build::Builder::new()
            .wsdl(wsdl)
            .out_name(wsdl, name)
            .catalog_entry("src/test/resources/DoubleItLogical.wsdl", &logical)
            .ports(ports.iter().copied());
        if let Err(e) = b.build() {
            panic!("soapgen: {e}");
        }
    }
    // WCF's WS-SecureConversation interop services, every port's security configured by hand
    // (tests/tests/wss/cxf/secure_conversation.rs).
    let wssc = format!("{resources}/wsdl_systest_wssec/wssc/WSSecureConversation.wsdl");
    let b = soapgen_build::Builder::new()
        .wsdl(&wssc)
        .out_name(&wssc, "cxf_wssc")
        .manual_security(["*"]);
    // Quietly: the policies left to the tests are the corpus's (its refusals are warnings).
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    if let Err(e) = b.write_to(&out, false) {
        panic!("soapgen: {e}");
    }
}
