//! The large public APIs of the corpus, called as their users write the calls, against responses
//! shaped as those services send them (written from the services' published documentation and
//! samples): what a user meets on the last mile, beyond what the peers of the other tests show.
//!
//! - Exchange Web Services `FindItem` (`tests/corpus/wsdltophp/tests/resources/ews/services.wsdl`,
//!   generated with `--operation FindItem`: 1,131 types): the `RequestServerVersion` header set
//!   once on the client, the request built with `new` and the typed folder id, the reply's
//!   `ServerVersionInfo` header read typed, the response messages' choice, the items' `xsi:type`
//!   kinds, attributes everywhere (Microsoft's documented response, with the default namespace
//!   declared on the header block as Exchange writes it).
//! - PayPal's classic API `GetBalance` and `GetTransactionDetails`
//!   (`tests/corpus/wsdltophp/tests/resources/paypal/PayPalSvc.wsdl`): the `RequesterCredentials`
//!   header (API username, password, signature) set once; PayPal's envelope with its unknown
//!   `Security` header and the credentials echoed back emptied, `xsi:type` on most elements;
//!   `SuccessWithWarning` with an `Errors` entry and its parameter; amounts as simple content with
//!   a `currencyID` attribute, repeated; nested records with empty strings and empty records whose
//!   attributes are empty.
//! - Amazon EC2 `DescribeInstances` (`tests/corpus/gowsdl/fixtures/ec2.wsdl`): a filter set, three
//!   reservations (a VPC instance with its network interface, volumes and tags; a stopped one
//!   with its state reason and empty sets; a fleet of 500 with the optional fields left out).
//! - e-conomic (`tests/corpus/wasabi/spec/fixtures/economic.wsdl`, five operations): `Connect`,
//!   then `Debtor_GetAll` (1,000 handles) and `Debtor_GetData` (a nil decimal, an absent field)
//!   in the session ASP.NET's cookie keeps, as .asmx answers (`soap:` prefix, default namespace on
//!   the response element).
//! - ONVIF device management (`tests/corpus/onvif/wsdl/ver10/device/wsdl/devicemgmt.wsdl`),
//!   `GetDeviceInformation` and `GetCapabilities` with the WS-Security UsernameToken digest ONVIF
//!   clients send, SOAP 1.2 as a camera's gSOAP server answers (every service's prefix declared
//!   on the Envelope), the vendor's capabilities under an `xs:any` decoded by the user.

mod ec2;
mod economic;
mod ews;
mod onvif;
mod paypal;
