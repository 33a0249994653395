//! Clients no one here wrote call the fake on a loopback socket (`testing::Loopback`) from the
//! WSDL it serves at `?wsdl`:
//! - Apache CXF 4.2.3's dynamic JAX-WS client compiles the JAXB classes of the WSDL's types (XJC,
//!   as `wsdl2java` does) and calls with typed requests (`tests/peers/cxf/CxfClient.java`): the
//!   gSOAP echo WSDL (both bindings, the declared fault as CXF's generated exception),
//!   GlobalWeather, the benchmark's WSDL (100 objects of every value kind), the MTOM WSDL (CXF
//!   sends MTOM and reads the fake's MTOM answer) and a WS-Security setup (a UsernameToken, a
//!   Timestamp and the Body signed by WSS4J's interceptors, the signed answer verified by them);
//! - zeep 4.2 (`tests/peers/zeep_call.py`): GlobalWeather, the benchmark's objects and the MTOM
//!   WSDL (inline: zeep sends no MTOM) through both bindings, and an rpc/encoded WSDL (parts with
//!   their `xsi:type`, a struct, a SOAP encoding array);
//! - gSOAP 2.8's C clients generated from the same WSDLs: GlobalWeather, the benchmark's 100
//!   objects compared field by field, rpc/encoded, MTOM both ways, and its WS-Security plugin
//!   (signed, then signed and encrypted both ways) against the secured fake.
//!
//! zeep and gSOAP's C client on the echo WSDL are in `fake.rs`, zeep with WS-Security in
//! `fake_security.rs`. JAX-WS has no rpc/encoded: that pair is not tried.

use std::sync::Arc;
use std::time::Duration;

use soapgen_runtime::testing::{Dispatch, Loopback, SecuredService};
use soapgen_runtime::types::Base64Binary;
use soapgen_runtime::wss::{TrustStore, WssConfig, X509Signer};
use soapgen_runtime::{Error, FaultError, SoapVersion};
use soapgen_tests::peers::{cxf_client, zeep_call, zeep_call_with};
use soapgen_tests::pki::test_pki;
use soapgen_tests::wss::{cert, credential, path_str};

mod echo {
    soapgen_runtime::include_client!("echo");
}
mod weather {
    soapgen_runtime::include_client!("globalweather");
}
mod bench {
    soapgen_runtime::include_client!("large_objects");
}
mod mtom {
    soapgen_runtime::include_client!("mtom");
}

/// A WSDL of the tests' tree.
fn wsdl(path: &str) -> String {
    let path = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `service` on a loopback socket, serving the WSDL at `wsdl_path` (of the tests' tree) at
/// `?wsdl` when given.
async fn serve(service: Arc<dyn Dispatch>, wsdl_path: Option<&str>) -> Loopback {
    Loopback::serve(service, wsdl_path.map(wsdl)).await.unwrap()
}

struct Echo;

impl echo::EchoService for Echo {
    async fn echo(&self, text: String) -> Result<String, Error> {
        Ok(format!("{text}!"))
    }

    async fn fail(&self, reason: String) -> Result<(), FaultError<echo::types::FailFaults>> {
        let fault = soapgen_runtime::fault::Fault::sender(SoapVersion::Soap11, "refused");
        let detail = echo::types::FailDetail::new(reason, 7);
        Err(FaultError::declared(
            fault,
            echo::types::FailFaults::FailFault(detail),
        ))
    }

    async fn whoami(&self) -> Result<String, Error> {
        Ok("fake".into())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cxf_calls_the_echo_fake_through_both_bindings() {
    let service = echo::EchoServiceClient::fake_service(Echo);
    let server = serve(service, Some("peers/gsoap/echo.wsdl")).await;
    for port in ["EchoSoap11", "EchoSoap12"] {
        let out = cxf_client(
            &server.wsdl_url(),
            "EchoService",
            port,
            &[],
            &[
                ("echo", r#"{"text": "gr\u00fc\u00df <&> ]]>"}"#),
                ("whoami", "{}"),
                ("fail", r#"{"reason": "bad"}"#),
            ],
        );
        assert_eq!(out[0], r#"{"result":{"text":"grüß <&> ]]>!"}}"#, "{port}");
        assert_eq!(out[1], r#"{"result":{"user":"fake"}}"#, "{port}");
        // The declared fault: CXF's exception generated for it, its detail the JAXB fault bean.
        let fault: serde_json::Value = serde_json::from_str(&out[2]).unwrap();
        let fault = &fault["fault"];
        assert_eq!(
            fault["declared"], "FailDetail_Exception",
            "{port}: {}",
            out[2]
        );
        assert_eq!(fault["message"], "refused", "{port}: {}", out[2]);
        assert_eq!(
            fault["detail"],
            serde_json::json!({"reason": "bad", "code": 7}),
            "{port}"
        );
    }
}

struct Weather;

impl weather::GlobalWeather for Weather {
    async fn get_weather(
        &self,
        city_name: Option<String>,
    ) -> Result<weather::types::GetWeatherResponse, Error> {
        let city = city_name.unwrap_or_default();
        Ok(weather::types::GetWeatherResponse::new(
            format!("Sunny in {city}"),
            "Success".into(),
        ))
    }

    async fn get_cities_by_country(
        &self,
        country_name: Option<String>,
    ) -> Result<Option<String>, Error> {
        Ok(country_name
            .map(|c| format!("<NewDataSet><Table><Country>{c}</Country></Table></NewDataSet>")))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cxf_calls_the_globalweather_fake() {
    let service = weather::GlobalWeatherClient::fake_service(Weather);
    let server = serve(service, Some("../examples/wsdl/globalweather.wsdl")).await;
    for port in ["GlobalWeatherSoap", "GlobalWeatherSoap12"] {
        let out = cxf_client(
            &server.wsdl_url(),
            "GlobalWeather",
            port,
            &[],
            &[
                ("GetWeather", r#"{"CityName": "Malmö"}"#),
                ("GetCitiesByCountry", r#"{"CountryName": "Sweden"}"#),
                ("GetCitiesByCountry", "{}"),
            ],
        );
        assert_eq!(
            out[0], r#"{"result":{"GetWeatherResult":"Sunny in Malmö","StatusCode":"Success"}}"#,
            "{port}"
        );
        assert_eq!(
            out[1],
            r#"{"result":{"GetCitiesByCountryResult":"<NewDataSet><Table><Country>Sweden</Country></Table></NewDataSet>"}}"#,
            "{port}"
        );
        assert_eq!(
            out[2], r#"{"result":{"GetCitiesByCountryResult":null}}"#,
            "{port}"
        );
    }
}

struct Objects;

impl bench::LargeObjectsService for Objects {
    async fn echo(
        &self,
        item: Vec<bench::types::LargeObject>,
    ) -> Result<Vec<bench::types::LargeObject>, Error> {
        Ok(item)
    }

    async fn ping(&self, value: String) -> Result<String, Error> {
        Ok(value)
    }
}

/// The benchmark's Echo of 100 objects: every value kind of the benchmark WSDL (long, string,
/// decimal, int, double, boolean, dateTime, a nested complexType, a repeated string) typed by
/// JAXB on CXF's side and by soapgen on the fake's, back unchanged, through both bindings.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cxf_echoes_100_objects_through_the_benchmark_fake() {
    let service = bench::LargeObjectsServiceClient::fake_service(Objects);
    let server = serve(service, Some("wsdl/large_objects.wsdl")).await;
    let items: Vec<String> = (0..100)
        .map(|i| {
            format!(
                r#"{{"id": {id}, "name": "object {i} <&>", "description": "d\u00e9scription {i}",
                "price": "{i}.25", "quantity": {i}, "ratio": 0.5, "active": {active},
                "created": "2026-12-06T10:{m:02}:00Z",
                "address": {{"street": "{i} Main St", "city": "K\u00f8benhavn", "postalCode": "{i:05}",
                "country": "DK"}}, "tags": ["t{i}", "x"]}}"#,
                id = 9_000_000_000i64 + i,
                active = i % 2 == 0,
                m = i % 60,
            )
        })
        .collect();
    let request = format!(r#"{{"item": [{}]}}"#, items.join(","));
    for port in ["LargeObjectsSoap11Port", "LargeObjectsSoap12Port"] {
        let out = cxf_client(
            &server.wsdl_url(),
            "LargeObjectsService",
            port,
            &[],
            &[("Echo", &request), ("Ping", r#"{"value": "p"}"#)],
        );
        let back: serde_json::Value = serde_json::from_str(&out[0]).unwrap();
        let sent: serde_json::Value = serde_json::from_str(&request).unwrap();
        let back_items = back["result"]["item"].as_array().expect(&out[0]);
        assert_eq!(back_items.len(), 100);
        for (b, s) in back_items.iter().zip(sent["item"].as_array().unwrap()) {
            for key in [
                "id",
                "name",
                "description",
                "quantity",
                "ratio",
                "active",
                "address",
                "tags",
            ] {
                assert_eq!(b[key], s[key], "{key}: {b}");
            }
            // JAXB's lexical forms: a decimal as a number, the dateTime as it was written.
            assert_eq!(b["price"].to_string(), s["price"].as_str().unwrap(), "{b}");
            assert_eq!(b["created"], s["created"], "{b}");
        }
        assert_eq!(out[1], r#"{"result":{"value":"p"}}"#);
    }
}

struct Store;

impl mtom::MtomService for Store {
    async fn echo_data(
        &self,
        name: String,
        data: Base64Binary,
    ) -> Result<mtom::types::EchoDataResponse, Error> {
        Ok(mtom::types::EchoDataResponse::new(
            name,
            data.len() as i64,
            data,
        ))
    }
}

/// CXF sends MTOM (the data in a MIME part) and reads the fake's MTOM answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cxf_sends_mtom_to_the_fake_and_reads_its_mtom_answer() {
    use base64::Engine as _;
    let service = mtom::MtomServiceClient::fake_service(Store);
    // The WSDL without its import of the xmlmime schema from w3.org (no network here): its
    // `xmime:expectedContentTypes` attributes stay, which is what makes JAXB type the data as a
    // DataHandler that CXF sends as an MTOM part.
    let text = wsdl("peers/gsoap/mtom/mtom.wsdl");
    let start = text
        .find("<xs:import namespace=\"http://www.w3.org/2005/05/xmlmime\"")
        .unwrap();
    let end = start + text[start..].find("/>").unwrap() + 2;
    let served = format!("{}{}", &text[..start], &text[end..]);
    let server = Loopback::serve(service, Some(served)).await.unwrap();
    let data: Vec<u8> = (0..70_000u32).map(|i| (i * 7 % 251) as u8).collect();
    let b64 = base64::engine::general_purpose::STANDARD.encode(&data);
    let request = format!(r#"{{"name": "blob", "data": "{b64}"}}"#);
    let out = cxf_client(
        &server.wsdl_url(),
        "MtomService",
        "MtomSoap11Port",
        &["--mtom"],
        &[("EchoData", &request)],
    );
    let back: serde_json::Value = serde_json::from_str(&out[0]).unwrap();
    assert_eq!(
        back["result"]["name"],
        "blob",
        "{}",
        &out[0][..200.min(out[0].len())]
    );
    assert_eq!(back["result"]["size"], 70_000);
    assert_eq!(back["result"]["data"].as_str(), Some(b64.as_str()));
}

/// WSS4J's interceptors on CXF's client: a UsernameToken (PasswordDigest), a Timestamp and the
/// Body signed (RSA-SHA256, the certificate as a BinarySecurityToken); the secured fake checks
/// them and signs its answer, which WSS4J verifies against the test CA.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cxf_calls_the_secured_fake_with_wss4j() {
    let pki = test_pki();
    let policy = WssConfig::new()
        .expect_username_token("cxf", "pw & <x>")
        .require_signature(true)
        .trust(TrustStore::new().anchor(cert("ca.pem")))
        .sign(X509Signer::new(credential("server")))
        .timestamp(Duration::from_secs(300));
    let service = SecuredService::new(echo::EchoServiceClient::fake_service(Echo), policy).unwrap();
    let server = serve(Arc::new(service), Some("peers/gsoap/echo.wsdl")).await;
    let (p12, ca) = (pki.path("client.p12"), pki.path("ca.pem"));
    let keys = [
        "--keystore",
        path_str(&p12),
        "--storepass",
        "changeit",
        "--ca",
        path_str(&ca),
    ];
    for port in ["EchoSoap11", "EchoSoap12"] {
        let call = |password: &str| {
            let mut options = vec!["--user", "cxf", "--password", password];
            options.extend_from_slice(&keys);
            cxf_client(
                &server.wsdl_url(),
                "EchoService",
                port,
                &options,
                &[("echo", r#"{"text": "signed"}"#)],
            )
            .remove(0)
        };
        assert_eq!(
            call("pw & <x>"),
            r#"{"result":{"text":"signed!"}}"#,
            "{port}"
        );
        let refused = call("wrong");
        assert!(
            refused.contains("FailedAuthentication"),
            "{port}: {refused}"
        );
    }
}

/// zeep 4.2 reads the WSDLs the fake serves and calls through each SOAP binding: GlobalWeather
/// and the benchmark's objects (decimal, dateTime, nested and repeated elements).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn zeep_calls_the_globalweather_and_benchmark_fakes() {
    let weather = serve(
        weather::GlobalWeatherClient::fake_service(Weather),
        Some("../examples/wsdl/globalweather.wsdl"),
    )
    .await;
    for port in ["GlobalWeatherSoap", "GlobalWeatherSoap12"] {
        let call =
            |op: &str, args: &str| zeep_call(&weather.wsdl_url(), "GlobalWeather", port, op, args);
        assert_eq!(
            call("GetWeather", r#"{"CityName": "Malm\u00f6"}"#),
            r#"{"result": {"GetWeatherResult": "Sunny in Malm\u00f6", "StatusCode": "Success"}}"#,
            "{port}"
        );
        assert_eq!(
            call("GetCitiesByCountry", r#"{"CountryName": "Sweden"}"#),
            r#"{"result": "<NewDataSet><Table><Country>Sweden</Country></Table></NewDataSet>"}"#,
            "{port}"
        );
    }
    let objects = serve(
        bench::LargeObjectsServiceClient::fake_service(Objects),
        Some("wsdl/large_objects.wsdl"),
    )
    .await;
    let item = r#"{"id": 9000000001, "name": "a <&>", "description": "d\u00e9", "price": "12.50",
        "quantity": -3, "ratio": 0.25, "active": true, "created": "2026-12-06T10:01:02Z",
        "address": {"street": "s", "city": "K\u00f8benhavn", "postalCode": "01234",
        "country": "DK"}, "tags": ["t", "u"]}"#;
    for port in ["LargeObjectsSoap11Port", "LargeObjectsSoap12Port"] {
        let out = zeep_call(
            &objects.wsdl_url(),
            "LargeObjectsService",
            port,
            "Echo",
            &format!(r#"{{"item": [{item}, {item}]}}"#),
        );
        let back: serde_json::Value = serde_json::from_str(&out).unwrap();
        let items = back["result"].as_array().expect(&out);
        assert_eq!(items.len(), 2, "{port}: {out}");
        let sent: serde_json::Value = serde_json::from_str(item).unwrap();
        for key in [
            "id",
            "name",
            "description",
            "quantity",
            "ratio",
            "active",
            "address",
            "tags",
        ] {
            assert_eq!(items[0][key], sent[key], "{port} {key}: {out}");
        }
        // zeep's Python values, printed with str(): Decimal('12.50'), a datetime with its zone.
        assert_eq!(items[0]["price"], "12.50", "{port}: {out}");
        assert_eq!(
            items[0]["created"], "2026-12-06 10:01:02+00:00",
            "{port}: {out}"
        );
    }
}

mod encoded {
    soapgen_runtime::include_client!("encoded");
}

struct Encoded;

impl encoded::EncodedService for Encoded {
    async fn echo_item(&self, item: encoded::types::Item) -> Result<encoded::types::Item, Error> {
        Ok(encoded::types::Item::new(
            format!("{}!", item.name),
            item.count + 1,
        ))
    }

    async fn echo_items(
        &self,
        items: soapgen_runtime::types::SoapArray<encoded::types::Item>,
    ) -> Result<soapgen_runtime::types::SoapArray<encoded::types::Item>, Error> {
        Ok(items)
    }

    async fn echo_strings(
        &self,
        values: soapgen_runtime::types::SoapArray<String>,
    ) -> Result<soapgen_runtime::types::SoapArray<String>, Error> {
        Ok(values
            .iter()
            .map(|v| format!("{v}!"))
            .collect::<Vec<_>>()
            .into())
    }

    async fn get_pair(&self, name: String, count: i32) -> Result<encoded::types::Pair, Error> {
        Ok(encoded::types::Pair::new(
            encoded::types::Item::new(name.clone(), count),
            encoded::types::Item::new(name, -count),
        ))
    }

    async fn describe(&self, d: encoded::types::Describe) -> Result<String, Error> {
        Ok(format!(
            "{}|{}|{}|{}|{}",
            d.name, d.count, d.price, d.active, d.note
        ))
    }
}

/// rpc/encoded (SOAP 1.1 §5, §7) from a client no one here wrote: zeep 4.2 writes each part with
/// its `xsi:type`, the fake reads them and answers with typed accessors zeep reads back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn zeep_calls_the_rpc_encoded_fake() {
    let server = serve(
        encoded::EncodedServiceClient::fake_service(Encoded),
        Some("peers/gsoap/encoded/encoded.wsdl"),
    )
    .await;
    // The SOAP encoding schema the WSDL imports, from zeep's own test files (no web here).
    let enc = format!(
        "--local=http://schemas.xmlsoap.org/soap/encoding/={}/corpus/zeep/tests/wsdl_files/soap-enc.xsd",
        env!("CARGO_MANIFEST_DIR")
    );
    let call = |op: &str, args: &str| {
        let url = server.wsdl_url();
        zeep_call_with(&url, "EncodedService", "EncodedPort", op, args, &[&enc])
    };
    assert_eq!(
        call("echoItem", r#"{"item": {"name": "a <b>", "count": 1}}"#),
        r#"{"result": {"name": "a <b>!", "count": 2}}"#
    );
    assert_eq!(
        call("getPair", r#"{"name": "n", "count": 3}"#),
        r#"{"result": {"first": {"name": "n", "count": 3}, "second": {"name": "n", "count": -3}}}"#
    );
    // A SOAP encoding array (SOAP 1.1 §5.4.2): zeep sends it typed, and leaves the items of the
    // answer as XML elements.
    let out = call("echoStrings", r#"{"values": ["p", "q r"]}"#);
    assert!(
        out.contains(">p!</item>") && out.contains(">q r!</item>"),
        "{out}"
    );
    assert_eq!(
        call(
            "describe",
            r#"{"name": "d <&>", "count": 1, "price": 2.5, "active": true, "note": ""}"#
        ),
        r#"{"result": "d <&>|1|2.5|true|"}"#
    );
}

mod wsse {
    soapgen_runtime::include_client!("wsse");
}

/// The echo of the gSOAP WS-Security WSDL: the text, and what the service checked (here: what
/// the fake's check found, which the implementation is not shown, so a constant).
struct WsseEcho;

impl wsse::WsseEchoService for WsseEcho {
    async fn echo_text(&self, text: String) -> Result<wsse::types::EchoTextResponse, Error> {
        Ok(wsse::types::EchoTextResponse::new(
            text,
            "fake".into(),
            String::new(),
        ))
    }
}

/// gSOAP 2.8's own WS-Security plugin (`wsse-client`, `tests/peers/gsoap/wsse/client.c`) calls
/// the secured fake: a UsernameToken (PasswordDigest), a Timestamp and the Body signed
/// (RSA-SHA256, the certificate as a BinarySecurityToken), then also the Body encrypted for the
/// service (AES-128-CBC); a wrong password is refused. The plugin
/// requires the answer signed by exactly the service's certificate over the Body and the
/// Timestamp, and, the second time, its Body encrypted for the client. Key transport is RSA 1.5
/// both ways: gSOAP 2.8.124 labels its OAEP `rsa-oaep-mgf1p` but performs PKCS#1 v1.5 (see
/// `tests/tests/wss/gsoap.rs`), so the fake allows it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gsoaps_wsse_plugin_calls_the_secured_fake() {
    use soapgen_runtime::wss::{AlgorithmPolicy, KeyTransport, X509Encryptor};
    let pki = test_pki();
    let base = || {
        WssConfig::new()
            .expect_username_token("gsoap", "pw & <x>")
            .require_signature(true)
            .trust(TrustStore::new().anchor(cert("ca.pem")))
            .sign(X509Signer::new(credential("server")))
            .timestamp(Duration::from_secs(300))
    };
    let signed = base();
    let encrypted = base()
        .decrypt_with(credential("server"))
        .require_encryption(true)
        .algorithms(AlgorithmPolicy::default().allow(KeyTransport::Rsa15.uri()))
        .encrypt(X509Encryptor::new(cert("client.pem")).key_transport(KeyTransport::Rsa15));
    let encrypt_args = [
        "--password",
        "pw & <x>",
        "--encrypt",
        "aes128-cbc",
        "--key-transport",
        "rsa-1_5",
        "--require-encrypted-response",
    ];
    for (policy, args) in [
        (signed.clone(), &["--password", "pw & <x>"][..]),
        (encrypted, &encrypt_args[..]),
        (signed, &["--password", "wrong"][..]),
    ] {
        let service =
            SecuredService::new(wsse::WsseEchoServiceClient::fake_service(WsseEcho), policy)
                .unwrap();
        let server = serve(Arc::new(service), Some("peers/gsoap/wsse/wsse.wsdl")).await;
        let out = std::process::Command::new(soapgen_tests::peers::gsoap_wsse_client())
            .arg("--url")
            .arg(server.url())
            .arg("--cert")
            .arg(pki.path("client.pem"))
            .arg("--key")
            .arg(pki.path("client.key"))
            .arg("--ca")
            .arg(pki.path("ca.pem"))
            .arg("--peer-cert")
            .arg(pki.path("server.pem"))
            .args(["--text", "gr\u{fc}\u{df} <&>", "--user", "gsoap"])
            .args(args)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        if args.contains(&"wrong") {
            // Refused before the implementation runs, with the fault of WSS 1.1 §12.
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(!out.status.success(), "{stdout}");
            assert!(stderr.contains("FailedAuthentication"), "{stderr}");
            continue;
        }
        assert!(
            out.status.success(),
            "{args:?}: {}\n{stdout}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.contains("text=gr\u{fc}\u{df} <&>\n"),
            "{args:?}: {stdout}"
        );
        let checked = stdout
            .lines()
            .find_map(|l| l.strip_prefix("response-checked="))
            .unwrap_or_default();
        assert!(
            checked.starts_with("timestamp,signature,body-signed,timestamp-signed"),
            "{args:?}: {stdout}"
        );
        if args.contains(&"--encrypt") {
            assert!(checked.ends_with(",decrypted"), "{args:?}: {stdout}");
        }
    }
}

/// gSOAP's C clients, generated from the same WSDLs (`wsdl2h -c`, `soapcpp2 -c`), call the
/// fakes: GlobalWeather and the benchmark's 100 objects (each field compared with what was
/// sent) through both bindings, rpc/encoded (structs, SOAP encoding arrays of structs and of
/// strings, five parts), and MTOM (the data as an MTOM part or inline; the fake answers an MTOM
/// request in MTOM).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gsoaps_generated_clients_call_the_fakes() {
    use soapgen_tests::peers::{gsoap_client, GsoapClient};
    let weather = serve(weather::GlobalWeatherClient::fake_service(Weather), None).await;
    let objects = serve(
        bench::LargeObjectsServiceClient::fake_service(Objects),
        None,
    )
    .await;
    let mtom = serve(mtom::MtomServiceClient::fake_service(Store), None).await;
    for v in ["11", "12"] {
        let call = |op: &str, arg: &str| {
            gsoap_client(GsoapClient::GlobalWeather, &[&weather.url(), v, op, arg])
        };
        assert_eq!(
            call("GetWeather", "Malm\u{f6}"),
            "weather Sunny in Malm\u{f6}|Success"
        );
        assert_eq!(
            call("GetCitiesByCountry", "Sweden"),
            "cities <NewDataSet><Table><Country>Sweden</Country></Table></NewDataSet>"
        );
        let none = gsoap_client(
            GsoapClient::GlobalWeather,
            &[&weather.url(), v, "GetCitiesByCountry"],
        );
        assert_eq!(none, "cities -", "{v}");
        assert_eq!(
            gsoap_client(GsoapClient::Bench, &["roundtrip", &objects.url(), v]),
            "roundtrip 100 same",
            "{v}"
        );
        for (mode, size) in [("mtom", "70000"), ("inline", "3000"), ("mtom", "0")] {
            let out = gsoap_client(GsoapClient::Mtom, &[&mtom.url(), v, mode, size]);
            // An MTOM request is answered in MTOM when the data reaches the fake's threshold.
            let answered = if mode == "mtom" && size != "0" {
                "mtom"
            } else {
                "inline"
            };
            assert_eq!(
                out,
                format!("echo blob|{size}|same|{answered}"),
                "{v} {mode}"
            );
        }
    }
    let encoded = serve(encoded::EncodedServiceClient::fake_service(Encoded), None).await;
    let url = encoded.url();
    let call = |args: &[&str]| {
        let mut all = vec![url.as_str()];
        all.extend_from_slice(args);
        gsoap_client(GsoapClient::Encoded, &all)
    };
    assert_eq!(call(&["echoItem", "a <b>", "1"]), "item a <b>!|2");
    assert_eq!(
        call(&["echoItems", "x", "1", "y & z", "-2"]),
        "items x|1,y & z|-2"
    );
    assert_eq!(call(&["echoStrings", "p", "", "q r"]), "strings p!,!,q r!");
    assert_eq!(call(&["getPair", "n", "3"]), "pair n|3 n|-3");
    assert_eq!(
        call(&["describe", "d <&>", "1", "2.5", "true", ""]),
        "result d <&>|1|2.5|true|"
    );
}

/// zeep 4.2 calls the MTOM WSDL's fake: it sends the data inline (zeep writes no MTOM) and reads
/// the typed answer, the bytes unchanged; the xmlmime schema the WSDL imports comes from the copy
/// soapgen-build bundles (no web here).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn zeep_calls_the_mtom_fake() {
    use base64::Engine as _;
    let server = serve(
        mtom::MtomServiceClient::fake_service(Store),
        Some("peers/gsoap/mtom/mtom.wsdl"),
    )
    .await;
    let xmlmime = format!(
        "--local=http://www.w3.org/2005/05/xmlmime={}/../soapgen-build/schemas/xmlmime.xsd",
        env!("CARGO_MANIFEST_DIR")
    );
    let data: Vec<u8> = (0..5_000u32).map(|i| (i * 7 % 251) as u8).collect();
    let b64 = base64::engine::general_purpose::STANDARD.encode(&data);
    let args = format!(r#"{{"name": "blob", "data": {{"$base64": "{b64}"}}}}"#);
    for port in ["MtomSoap11Port", "MtomSoap12Port"] {
        let out = zeep_call_with(
            &server.wsdl_url(),
            "MtomService",
            port,
            "EchoData",
            &args,
            &[&xmlmime],
        );
        let back: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(back["result"]["name"], "blob", "{port}: {out}");
        assert_eq!(back["result"]["size"], 5_000, "{port}");
        assert_eq!(
            back["result"]["data"]["$base64"].as_str(),
            Some(b64.as_str()),
            "{port}"
        );
    }
}
