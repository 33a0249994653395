//! The `soapgen` CLI as a library: `inspect` shows services, ports, operations as Rust signatures
//! and types; `generate` writes a crate and is idempotent.

use clap::Parser;
use soapgen_cli::{run, Cli};

fn cli(args: &[&str]) -> Result<String, soapgen_build::Errors> {
    let mut all = vec!["soapgen"];
    all.extend_from_slice(args);
    run(Cli::parse_from(all))
}

const WSDL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../soapgen-build/tests/wsdl/globalweather.wsdl"
);

#[test]
fn inspect_shows_services_ports_operations_and_types() {
    let out = cli(&["inspect", WSDL, "--types"]).unwrap();
    for line in [
        "trait GlobalWeather (SOAP 1.1 and 1.2, 1.1 by default; client GlobalWeatherClient)",
        "  bindings GlobalWeatherSoap (SOAP 1.1), GlobalWeatherSoap12 (SOAP 1.2) of portType GlobalWeatherSoap",
        "  service GlobalWeather, port GlobalWeatherSoap (SOAP 1.1): http://www.webservicex.com/globalweather.asmx",
        "  service GlobalWeather, port GlobalWeatherSoap12 (SOAP 1.2): http://www.webservicex.com/globalweather.asmx",
        "  async fn get_weather(&self, city_name: Option<String>) -> Result<GetWeatherResponse, Error>;",
        "  struct GetWeatherResponse (element {http://www.webserviceX.NET}GetWeatherResponse)",
        "    status_code: String",
        "note: binding GlobalWeatherHttpGet is an HTTP GET/POST binding",
    ] {
        assert!(out.contains(line), "missing {line:?} in:\n{out}");
    }
}

/// SwA operations (WSDL 1.1 §5): the MIME parts among the parameters and in the result, and a
/// sample request that is multipart/related.
#[test]
fn inspect_shows_attachments_and_their_multipart_request() {
    let wsdl = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../soapgen-build/tests/wsdl/swa.wsdl"
    );
    let out = cli(&["inspect", wsdl]).unwrap();
    // The request header is a constant set on the client, not a parameter.
    for line in [
        "  const TICKET_HEADER: DeclaredHeader<String>  // {urn:example:photos}Ticket; request \
         header of Upload: client.with_header(PhotoServiceClient::TICKET_HEADER, &value)\n",
        "  async fn upload(&self, title: String, image: Attachment /* MIME part image, \
         image/jpeg */, r#type: Attachment /* MIME part type, application/octet-stream */) -> \
         Result<(i64, Attachment /* MIME part preview */), Error>;",
        "\n      // request headers, set with with_header: TICKET_HEADER\n",
    ] {
        assert!(out.contains(line), "missing {line:?} in:\n{out}");
    }
    let out = cli(&["inspect", wsdl, "--operation", "Upload"]).unwrap();
    for line in [
        "Content-Type: multipart/related; type=\"text/xml\"; boundary=\"<boundary>\"; start=\"<root.message@soapgen>\"",
        "Content-Type: image/jpeg\nContent-Transfer-Encoding: binary\nContent-ID: <image=…@soapgen>\n\n(the bytes of `image`)",
        "--<boundary>--",
    ] {
        assert!(out.contains(line), "missing {line:?} in:\n{out}");
    }
}

/// `inspect` names the merged client after its service, with both versions (the first port's
/// first), every port, the fault sets by what they are, and warns of a relative address.
#[test]
fn inspect_shows_versions_ports_fault_sets_and_warnings() {
    let wsdl = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../soapgen-build/tests/wsdl/accounts.wsdl"
    );
    let out = cli(&["inspect", wsdl, "--types"]).unwrap();
    for line in [
        "trait Accounts (SOAP 1.2 and 1.1, 1.2 by default; client AccountsClient)",
        "  bindings AccountsSoap12 (SOAP 1.2), AccountsSoap (SOAP 1.1) of portType AccountsSoap",
        "  service Accounts, port AccountsSoap12 (SOAP 1.2): https://bank.example.com/accounts",
        "  service Accounts, port AccountsSoap (SOAP 1.1): https://bank.example.com/accounts",
        "  async fn transfer(&self, token: String, to: String, amount: Decimal) -> Result<ErrorCode, FaultError<InvalidLoginOrRateLimitFaults>>;",
        "  async fn logout(&self, token: String) -> Result<(), FaultError<InvalidLoginFaults>>;",
        "trait AuditService (SOAP 1.1; client AuditServiceClient)",
        "  service AuditService, port AuditPort (SOAP 1.1): /audit (not the default endpoint: it is a relative URL (RFC 3986 §4.2))",
        "  async fn clear_log(&self) -> Result<(), FaultError<AuditServiceFaults>>;",
        "  faults InvalidLoginFaults = [\"InvalidLoginFault\"]",
        "  enum ErrorCode = [\"INVALID_LOGIN\", ",
        "warning: ",
    ] {
        assert!(out.contains(line), "missing {line:?} in:\n{out}");
    }
    let warning = out.lines().find(|l| l.starts_with("warning: ")).unwrap();
    assert!(
        warning.ends_with(
            "accounts.wsdl:249:5: the address \"/audit\" of port AuditPort (service AuditService) \
             is a relative URL (RFC 3986 §4.2): it is not used as the default endpoint of \
             AuditServiceClient; give the URL to AuditServiceClient::new"
        ),
        "{warning}"
    );
}

#[test]
fn generate_writes_a_crate_and_is_idempotent() {
    let dir = std::env::temp_dir().join(format!("soapgen-cli-test-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let first = cli(&["generate", WSDL, "-o", d]).unwrap();
    assert!(first.contains("wrote crate globalweather"), "{first}");
    let lib = std::fs::read_to_string(dir.join("src/lib.rs")).unwrap();
    let modified = std::fs::metadata(dir.join("src/lib.rs"))
        .unwrap()
        .modified()
        .unwrap();
    cli(&["generate", WSDL, "-o", d]).unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.join("src/lib.rs")).unwrap(),
        lib
    );
    // Unchanged output is not rewritten (builds stay cached).
    assert_eq!(
        std::fs::metadata(dir.join("src/lib.rs"))
            .unwrap()
            .modified()
            .unwrap(),
        modified
    );
    let cargo = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    assert!(
        cargo.contains("soapgen-runtime = { version = \"0.1\""),
        "{cargo}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `generate` leaves alone a crate directory's Cargo.toml or lib.rs that it did not write
/// (unless `--force`), checks `--runtime`, and writes the whole command that regenerates the
/// crate into its Cargo.toml.
#[test]
fn generate_refuses_foreign_files_and_bad_runtimes() {
    let dir = std::env::temp_dir().join(format!("soapgen-cli-own-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let d = dir.to_str().unwrap();
    let mine = "[package]\nname = \"mine\"\n";
    std::fs::write(dir.join("Cargo.toml"), mine).unwrap();
    std::fs::write(dir.join("src/lib.rs"), "pub fn precious() {}\n").unwrap();
    let e = cli(&["generate", WSDL, "-o", d]).unwrap_err().to_string();
    assert!(
        e.contains("Cargo.toml exists and was not written by soapgen") && e.contains("--force"),
        "{e}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("Cargo.toml")).unwrap(),
        mine
    );
    std::fs::remove_file(dir.join("Cargo.toml")).unwrap();
    let e = cli(&["generate", WSDL, "-o", d]).unwrap_err().to_string();
    assert!(
        e.contains("lib.rs exists and was not written by soapgen"),
        "{e}"
    );
    assert!(!dir.join("Cargo.toml").exists(), "nothing written");
    cli(&["generate", WSDL, "-o", d, "--force"]).unwrap();
    assert!(!std::fs::read_to_string(dir.join("src/lib.rs"))
        .unwrap()
        .contains("precious"));

    let runtime = concat!(env!("CARGO_MANIFEST_DIR"), "/../soapgen-runtime");
    let path_runtime = format!("path:{runtime}");
    cli(&[
        "generate",
        WSDL,
        "-o",
        d,
        "--runtime",
        &path_runtime,
        "--catalog",
        "urn:x=a b.xsd",
        "--no-blocking",
    ])
    .unwrap();
    let cargo = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    // The command runs from the crate directory: the WSDL's path is relative to it.
    let command = cargo.lines().nth(1).unwrap();
    let words: Vec<&str> = command.split(' ').collect();
    assert_eq!(words[..4], ["#", "", "", "soapgen"], "{command}");
    assert_eq!(
        std::fs::canonicalize(dir.join(words[5])).unwrap(),
        std::fs::canonicalize(WSDL).unwrap(),
        "{command}"
    );
    assert!(
        command.contains(" -o . --catalog 'urn:x=")
            && command.ends_with(&format!("a b.xsd' --runtime {path_runtime} --no-blocking")),
        "{command}"
    );
    assert!(
        cargo.contains(&format!("soapgen-runtime = {{ path = {runtime:?} }}")),
        "--no-blocking: no blocking feature: {cargo}"
    );
    for (bad, says) in [
        ("banana", "neither a version requirement"),
        (
            "path:/nonexistent/runtime",
            "no Cargo.toml at /nonexistent/runtime/Cargo.toml",
        ),
        ("path:", "needs a directory"),
    ] {
        let e = cli(&["generate", WSDL, "-o", d, "--runtime", bad])
            .unwrap_err()
            .to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
    // A hand-written lib.rs that merely mentions soapgen is still not soapgen's.
    let own = std::fs::read_to_string(dir.join("src/lib.rs")).unwrap();
    std::fs::write(
        dir.join("src/lib.rs"),
        "//! Wraps the types generated by soapgen.\n",
    )
    .unwrap();
    let e = cli(&["generate", WSDL, "-o", d]).unwrap_err().to_string();
    assert!(
        e.contains("lib.rs exists and was not written by soapgen"),
        "{e}"
    );
    std::fs::write(dir.join("src/lib.rs"), own).unwrap();
    // A Cargo.toml that is a symbolic link to nothing is not written through.
    std::fs::remove_file(dir.join("Cargo.toml")).unwrap();
    std::os::unix::fs::symlink(dir.join("elsewhere.toml"), dir.join("Cargo.toml")).unwrap();
    let e = cli(&["generate", WSDL, "-o", d]).unwrap_err().to_string();
    assert!(e.contains("symbolic link to nothing"), "{e}");
    assert!(!dir.join("elsewhere.toml").exists());
    std::fs::remove_file(dir.join("Cargo.toml")).unwrap();
    // Through a symbolic link, paths are relative to where the crate really is (as Cargo and the
    // shell resolve `..`).
    let real = dir.join("deep/a/b");
    std::fs::create_dir_all(&real).unwrap();
    std::os::unix::fs::symlink(&real, dir.join("lnk")).unwrap();
    let via = dir.join("lnk/sub");
    let runtime_abs = format!("path:{runtime}");
    cli(&[
        "generate",
        WSDL,
        "-o",
        via.to_str().unwrap(),
        "--runtime",
        &runtime_abs,
    ])
    .unwrap();
    let cargo = std::fs::read_to_string(real.join("sub/Cargo.toml")).unwrap();
    let command = cargo.lines().nth(1).unwrap();
    let wsdl_arg = command.split(' ').nth(5).unwrap();
    assert_eq!(
        std::fs::canonicalize(real.join("sub").join(wsdl_arg)).unwrap(),
        std::fs::canonicalize(WSDL).unwrap(),
        "{command}"
    );
    // TOML-escaped where a path needs it.
    let odd = dir.join("rt \"q\"");
    std::fs::create_dir_all(&odd).unwrap();
    std::fs::write(odd.join("Cargo.toml"), "").unwrap();
    let odd_runtime = format!("path:{}", odd.display());
    cli(&["generate", WSDL, "-o", d, "--runtime", &odd_runtime]).unwrap();
    let cargo = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let want = format!("path = \"{}/rt \\\"q\\\"\"", dir.display());
    assert!(cargo.contains(&want), "{want} in {cargo}");
    // A file where the crate directory should be.
    let file = dir.join("src/lib.rs");
    let e = cli(&["generate", WSDL, "-o", file.to_str().unwrap()])
        .unwrap_err()
        .to_string();
    assert!(e.contains("not a directory"), "{e}");
    // With --force too: a file is not replaced by a directory.
    let e = cli(&["generate", WSDL, "-o", file.to_str().unwrap(), "--force"])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("not a directory") && e.contains("nothing written"),
        "{e}"
    );
    // A `..` after a directory that does not exist: nothing created.
    let ghost = dir.join("nonex");
    let through = format!("{}/../x", ghost.display());
    let e = cli(&["generate", WSDL, "-o", &through])
        .unwrap_err()
        .to_string();
    assert!(e.contains("does not exist"), "{e}");
    assert!(!ghost.exists() && !dir.join("x").exists());
    // A directory where Cargo.toml goes, with or without --force.
    let odd_crate = dir.join("odd");
    std::fs::create_dir_all(odd_crate.join("Cargo.toml")).unwrap();
    for force in [false, true] {
        let mut args = vec!["generate", WSDL, "-o", odd_crate.to_str().unwrap()];
        if force {
            args.push("--force");
        }
        let e = cli(&args).unwrap_err().to_string();
        assert!(e.contains("Cargo.toml is a directory"), "{e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn errors_name_the_file() {
    let e = cli(&["inspect", "/nonexistent/service.wsdl"])
        .unwrap_err()
        .to_string();
    assert!(e.contains("/nonexistent/service.wsdl"), "{e}");
    let e = cli(&[
        "generate",
        WSDL,
        "-o",
        "/tmp/x",
        "--catalog",
        "no-equals-sign",
    ])
    .unwrap_err()
    .to_string();
    assert!(e.contains("--catalog takes URL=PATH"), "{e}");
}

/// The help text of `args` (`--help` renders the long help).
fn help(args: &[&str]) -> String {
    let mut all = vec!["soapgen"];
    all.extend_from_slice(args);
    match Cli::try_parse_from(all) {
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelp => e.render().to_string(),
        other => panic!("{args:?} did not print help: {other:?}"),
    }
}

#[test]
fn help_texts() {
    insta::assert_snapshot!("help", help(&["--help"]));
    insta::assert_snapshot!("help_fetch", help(&["fetch", "--help"]));
    insta::assert_snapshot!("help_generate", help(&["generate", "--help"]));
    insta::assert_snapshot!("help_inspect", help(&["inspect", "--help"]));
    insta::assert_snapshot!("help_cert_extract", help(&["cert", "extract", "--help"]));
    // `help <command>` and `-h` are the same texts, the latter without the long paragraphs.
    assert_eq!(help(&["help", "fetch"]), help(&["fetch", "--help"]));
    assert!(help(&["fetch", "-h"]).contains("--include-bundled"));
}

#[test]
fn every_command_and_option_is_explained() {
    use clap::CommandFactory;
    fn check(cmd: &clap::Command, path: &str) {
        assert!(cmd.get_about().is_some(), "`{path}` has no description");
        for arg in cmd.get_arguments() {
            let explained = arg
                .get_help()
                .or(arg.get_long_help())
                .map(|h| h.to_string());
            assert!(
                explained.is_some_and(|h| h.len() > 10),
                "`{path}` option {:?} is not explained",
                arg.get_id()
            );
        }
        for sub in cmd.get_subcommands() {
            check(sub, &format!("{path} {}", sub.get_name()));
        }
    }
    let cmd = Cli::command();
    cmd.clone().debug_assert();
    check(&cmd, "soapgen");
}

/// `inspect --operation`: the HTTP headers and a sample envelope, per client and SOAP version, from
/// the model.
#[test]
fn inspect_operation_prints_a_sample_request() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../soapgen-build/tests/wsdl/");
    for (wsdl, op) in [
        ("globalweather", "GetWeather"),
        ("doc_wrapped", "place_order"), // the Rust method name works too
        ("doc_bare", "Distance"),
        ("rpc_literal", "Add"),
        ("enums", "Get"),
        ("recursive", "Get"),
        ("optional_nillable", "Get"),
        ("simple_content", "Get"),
        ("any", "Get"),
        ("two_namespaces", "Get"),
        ("accounts", "Transfer"),
    ] {
        let out = cli(&["inspect", &format!("{dir}{wsdl}.wsdl"), "--operation", op])
            .unwrap_or_else(|e| panic!("{wsdl}: {e}"));
        insta::assert_snapshot!(format!("sample_{wsdl}"), out);
    }
    // A WSDL that requires WS-Addressing: the headers the client adds.
    let addressed = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/peers/gsoap/wsa/addressing.wsdl"
    );
    let out = cli(&["inspect", addressed, "--operation", "Echo"]).unwrap();
    insta::assert_snapshot!("sample_addressing", out);
    // SOAP 1.2's SOAP-response MEP (WSDL 2.0): the GET of the IRI the request makes, no envelope.
    let get = cli(&[
        "inspect",
        &format!("{dir}primer_soap_response.wsdl"),
        "--operation",
        "opCheckAvailability",
    ])
    .unwrap();
    assert_eq!(
        get.lines().nth(1),
        Some(
            "GET http://greath.example.com/2004/reservation?checkInDate=2024-01-01&\
             checkOutDate=2024-01-01&roomType=string"
        ),
        "{get}"
    );
    assert!(!get.contains("Envelope"), "{get}");
    let e = cli(&["inspect", WSDL, "--operation", "GetNothing"])
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "undefined operation \"GetNothing\" in globalweather.wsdl\n  hint: its operations: GetCitiesByCountry, GetWeather"
    );
}

/// `inspect --operation … --default-namespaces`: the Body as a `default_namespaces` client writes
/// it: unprefixed elements, `xmlns="…"` where the namespace changes, `xmlns=""` for unqualified
/// children (rpc parts), qualified attributes still prefixed; the Envelope unchanged.
#[test]
fn inspect_operation_with_default_namespaces() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../soapgen-build/tests/wsdl/");
    for (wsdl, op) in [
        ("two_namespaces", "Get"),
        ("rpc_literal", "Add"),
        ("simple_content", "Get"),
    ] {
        let path = format!("{dir}{wsdl}.wsdl");
        let out = cli(&["inspect", &path, "--operation", op, "--default-namespaces"])
            .unwrap_or_else(|e| panic!("{wsdl}: {e}"));
        let prefixed = cli(&["inspect", &path, "--operation", op]).unwrap();
        // The Envelope's declarations are the same.
        let envelope = |s: &str| s[..s.find("<soapenv:Body>").unwrap()].to_owned();
        assert_eq!(envelope(&out), envelope(&prefixed));
        insta::assert_snapshot!(format!("sample_default_namespaces_{wsdl}"), out);
    }
}

/// `generate --operation` / `--exclude-operation`: only those operations and the types they reach;
/// the crate's manifest says how to regenerate it; `inspect --operation` says what one keeps.
#[test]
fn generate_a_selection_of_operations() {
    let wcf = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../soapgen-build/tests/wsdl/wcf.wsdl"
    );
    let dir = std::env::temp_dir().join(format!("soapgen-cli-select-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let out = cli(&["generate", wcf, "-o", d, "--operation", "FindOrders"]).unwrap();
    assert!(out.contains("(3 types, 1 clients, 1 operations)"), "{out}");
    let cargo = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    assert!(
        cargo.contains(" -o . --runtime 0.1 --operation FindOrders\n"),
        "{cargo}"
    );
    let out = cli(&[
        "generate",
        wcf,
        "-o",
        d,
        "--exclude-operation",
        "FindOrders",
    ])
    .unwrap();
    assert!(out.contains("1 clients, 2 operations"), "{out}");
    let lib = std::fs::read_to_string(dir.join("src/lib.rs")).unwrap();
    assert!(lib.contains("// - 1 of the 3 operations of the SOAP bindings (not selected)"));
    assert!(!lib.contains("fn find_orders"));
    let _ = std::fs::remove_dir_all(&dir);
    let e = cli(&["generate", wcf, "-o", d, "--operation", "FindOrder"])
        .unwrap_err()
        .to_string();
    assert!(e.contains("did you mean \"FindOrders\"?"), "{e}");

    let out = cli(&["inspect", wcf, "--operation", "find_orders"]).unwrap();
    assert!(
        out.ends_with(
            "\n`soapgen generate --operation FindOrders` keeps 3 of the 7 types (1 operation in 1 client)\n"
        ),
        "{out}"
    );
}

/// `inspect --stream`: the `…_stream` method as `generate --stream` makes it, for a repeated
/// result and for an array result (.NET's `ArrayOf…`: its items); an operation that cannot be
/// streamed is an error saying why.
#[test]
fn inspect_stream_shows_the_streamed_methods() {
    let dir = std::env::temp_dir().join(format!("soapgen-inspect-stream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let wsdl = dir.join("reports.wsdl");
    std::fs::write(
        &wsdl,
        r#"<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:t="urn:r" xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:r">
 <types><xs:schema targetNamespace="urn:r" elementFormDefault="qualified">
   <xs:complexType name="Row"><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType>
   <xs:complexType name="ArrayOfRow"><xs:sequence><xs:element name="Row" type="t:Row" minOccurs="0" maxOccurs="unbounded"/></xs:sequence></xs:complexType>
   <xs:element name="GetRows"><xs:complexType><xs:sequence><xs:element name="q" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
   <xs:element name="GetRowsResponse"><xs:complexType><xs:sequence><xs:element name="GetRowsResult" type="t:ArrayOfRow" minOccurs="0"/></xs:sequence></xs:complexType></xs:element>
   <xs:element name="Count"><xs:complexType><xs:sequence/></xs:complexType></xs:element>
   <xs:element name="CountResponse"><xs:complexType><xs:sequence><xs:element name="n" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
 </xs:schema></types>
 <message name="In"><part name="p" element="t:GetRows"/></message>
 <message name="Out"><part name="p" element="t:GetRowsResponse"/></message>
 <message name="CIn"><part name="p" element="t:Count"/></message>
 <message name="COut"><part name="p" element="t:CountResponse"/></message>
 <portType name="PT">
  <operation name="GetRows"><input message="t:In"/><output message="t:Out"/></operation>
  <operation name="Count"><input message="t:CIn"/><output message="t:COut"/></operation>
 </portType>
 <binding name="B" type="t:PT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
  <operation name="GetRows"><soap:operation soapAction="urn:GetRows"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
  <operation name="Count"><soap:operation soapAction="urn:Count"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
 </binding>
 <service name="S"><port name="P" binding="t:B"><soap:address location="http://localhost/x"/></port></service>
</definitions>"#,
    )
    .unwrap();
    let path = wsdl.to_str().unwrap();
    let out = cli(&["inspect", path, "--stream", "get_rows"]).unwrap();
    assert!(
        out.contains(
            "  async fn get_rows_stream(&self, q: String) -> Result<ItemStream<Row, Error>, Error>;"
        ),
        "{out}"
    );
    assert!(!out.contains("count_stream"), "{out}");
    let e = cli(&["inspect", path, "--stream", "Count"])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("operation Count of reports.wsdl cannot be streamed")
            && e.contains("not an array type"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
