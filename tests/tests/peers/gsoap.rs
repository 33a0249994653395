//! Interop with a gSOAP 2.8 server (Debian's gsoap) generated from `tests/peers/gsoap/echo.wsdl` by
//! wsdl2h and soapcpp2 and compiled by the test harness: echo, SOAP faults with typed detail over both
//! versions (HTTP 500 for 1.1, 400 for a 1.2 Sender fault), and a SOAP header the server reads.

use soapgen_runtime::xml::Name;
use soapgen_runtime::{soap_client, Error, FromXml, SoapVersion, ToXml};
use soapgen_tests::peers;

const NS: &str = "urn:soapgen:gsoap";

/// The `g:Auth` header block.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:soapgen:gsoap")]
pub struct Auth {
    pub user: String,
    pub token: String,
}

/// The `g:FailDetail` fault detail.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:soapgen:gsoap")]
pub struct FailDetail {
    pub reason: String,
    pub code: i32,
}

macro_rules! service {
    ($name:ident, $version:literal) => {
        #[soap_client(namespace = "urn:soapgen:gsoap", soap = $version)]
        pub trait $name {
            #[soap(action = "urn:soapgen:gsoap#echo", result = "text")]
            async fn echo(&self, text: String) -> Result<String, Error>;
            #[soap(action = "urn:soapgen:gsoap#fail")]
            async fn fail(&self, reason: String) -> Result<(), Error>;
            #[soap(action = "urn:soapgen:gsoap#whoami", result = "user")]
            async fn whoami(
                &self,
                #[soap(header, rename = "Auth")] auth: Option<Auth>,
            ) -> Result<String, Error>;
        }
    };
}

service!(Gsoap11, "1.1");
service!(Gsoap12, "1.2");

macro_rules! exercise {
    ($client:expr, $version:expr, $fault_status:expr) => {{
        let c = $client;
        for text in [
            "hello",
            "",
            "  spaces  kept ",
            "ünïcödé ✓ & <markup>",
            "line\nbreaks\r\n",
        ] {
            assert_eq!(c.echo(text.to_owned()).await.unwrap(), text);
        }
        // A fault with typed detail.
        let e = c.fail("bad input".into()).await.unwrap_err();
        let f = e
            .fault()
            .unwrap_or_else(|| panic!("expected a fault, got {e}"));
        assert_eq!(f.version, $version);
        assert_eq!(f.http_status, Some($fault_status));
        assert!(f.is_sender(), "{f}");
        assert_eq!(f.reason, "failed: bad input");
        if $version == SoapVersion::Soap12 {
            assert_eq!(f.subcodes.len(), 1);
            assert_eq!(f.subcodes[0].namespace.as_deref(), Some(NS));
            assert_eq!(f.subcodes[0].local_name, "InvalidReason");
        }
        let d: FailDetail = f
            .detail
            .as_ref()
            .unwrap()
            .decode(Name::new(NS, "FailDetail"))
            .unwrap()
            .unwrap();
        assert_eq!(
            d,
            FailDetail {
                reason: "bad input".into(),
                code: 42
            }
        );
        // The connection the server closed after the fault is replaced transparently.
        assert_eq!(c.echo("after fault".into()).await.unwrap(), "after fault");
        // A header the server reads.
        let auth = Auth {
            user: "alice".into(),
            token: "s3cr3t & co".into(),
        };
        assert_eq!(c.whoami(Some(auth)).await.unwrap(), "alice/s3cr3t & co");
        let e = c.whoami(None).await.unwrap_err();
        assert!(
            e.fault()
                .is_some_and(|f| f.reason.contains("missing Auth header")),
            "{e}"
        );
    }};
}

#[tokio::test]
async fn soap11_echo_faults_and_headers() {
    let peer = peers::gsoap();
    exercise!(
        Gsoap11Client::new(peer.url("/")).unwrap(),
        SoapVersion::Soap11,
        500
    );
}

#[tokio::test]
async fn soap12_echo_faults_and_headers() {
    let peer = peers::gsoap();
    exercise!(
        Gsoap12Client::new(peer.url("/")).unwrap(),
        SoapVersion::Soap12,
        400
    );
}
