//! The client surface: which SOAP bindings make one client, what the client is called, which
//! address is its default endpoint, and what the fault sets of its operations are called.
//!
//! # One client per portType and set of versions
//!
//! Every SOAP binding (WSDL 1.1 §3, WSDL 2.0 Part 2 §5) is first turned into operations on its own.
//! Bindings of one portType whose operations come out the same — soapAction, request and response
//! elements, parameters, headers, faults, attachments, rpc or document, literal or encoded: the
//! emitted operations compared field by field, in any order — make one client, which speaks every
//! SOAP version among them: `#[soap_client(soap = "1.1, 1.2")]`, the first being the default. The
//! default version is that of the first port in the WSDL (services, then their ports, in document
//! order) using one of the bindings. Bindings that differ in more than the version are separate
//! clients. Clients are in the order of their first port; clients without a port come last, in
//! binding name order.
//!
//! # Names
//!
//! A client (its trait, and so `{name}Client` and `{name}BlockingClient`) is named after what the
//! provider's documentation calls the service:
//!
//! 1. The base is the `wsdl:service` (WSDL 2.0: `service`) of the client's first port when every
//!    SOAP port of that service is of this portType; otherwise (a service of several portTypes, or
//!    no port) it is the portType (WSDL 2.0: `interface`). Both as PascalCase type names.
//! 2. Clients of one portType with the same base (bindings that differ in more than the version)
//!    get what tells them apart appended: `Soap11` or `Soap12` when their versions differ (a client
//!    of both versions gets nothing for the version), `Rpc` or `Document` when their styles differ,
//!    `Encoded` or `Literal` when their `use` differs. When that leaves two of them alike, each is
//!    named after its first binding instead.
//! 3. Trailing words `Binding`, `PortType`, `Port`, `Soap`, `Soap11` and `Soap12` are removed, one
//!    after the other, as long as a name remains (`StockQuotePortType` → `StockQuote`,
//!    `AwdbWebServiceSoapBinding` → `AwdbWebService`, but `PortType` stays), unless the stripped
//!    name is another client's stripped name too, or it or its `…Client`/`…BlockingClient` is the
//!    name of a type: then the name stays as written.
//! 4. A name that is still taken (by a type, or by a client named before, or their `…Client` and
//!    `…BlockingClient`) is replaced by the name as written, then by the name of the client's first
//!    binding, then gets `2`, `3`… appended, in client order. Names are compared ignoring case and
//!    `_`, as type names are.
//!
//! For example (WSDLs of the corpus): GlobalWeather (service `GlobalWeather` with SOAP 1.1 and 1.2
//! ports of portType `GlobalWeatherSoap`) gives `GlobalWeather` (`GlobalWeatherClient`); a WCF
//! service `Service1` of portType `IService1` (binding `BasicHttpBinding_IService1`) gives
//! `Service1`; PayPal's `PayPalAPIInterfaceService`, with ports of two portTypes, gives
//! `PayPalApiInterface` and `PayPalApiaaInterface`; ONVIF's `EventService` has ports of two
//! portTypes, giving `Event` (`EventPortType`) and `PullPointSubscription`, while its portType
//! `CreatePullPoint` (no port) is also the name of a request element, so that client is named after
//! its binding, `CreatePullPointBinding`.
//!
//! # Endpoints
//!
//! A port address that is not an absolute `http:` or `https:` URL with a host (RFC 3986 §3: a
//! relative reference, another scheme, no `//` authority, a port that is not a number) is not used
//! as a default endpoint, and is reported as a [`Warning`]: otherwise the client would fail at run
//! time. The default endpoint is the address of the client's first port, when usable.
//!
//! # Fault sets
//!
//! Operations that declare the same faults (the same variants: fault names, detail types and
//! elements) share one `fault_details!` type, named
//!
//! 1. `{client}Faults` (the base of its portType's client, step 3 above) when every operation of
//!    the portType declares it;
//! 2. otherwise after its members, each fault name without trailing `Fault` words, joined with
//!    `Or`, when there are at most three (`InvalidLoginFault` → `InvalidLoginFaults`;
//!    `InvalidLoginFault` and `RuntimeFault` → `InvalidLoginOrRuntimeFaults`);
//! 3. otherwise, if one operation declares it, after that operation (`{Operation}Faults`);
//! 4. otherwise after its first two members and how many more (`AOrBAnd3MoreFaults`);
//!
//! made unique among the types like any type name, sets taken in order of first use (clients, then
//! operations, in order).
//!
//! # Header constants
//!
//! Each header element a client's operations declare (WSDL 1.1 §3.7 `soap:header`, in a request
//! or a response) is one `DeclaredHeader` constant of the client, named after the element in
//! SCREAMING_SNAKE_CASE with `_HEADER` appended unless it ends so (`{ns}SessionHeader` and
//! `{ns}Session` both give `SESSION_HEADER`); a later element of the same name gets `_2`. Request
//! headers are set on the client with the constant, not passed as parameters ([`header_consts`]).

use std::collections::BTreeMap;

use crate::error::Warning;
use crate::model::ir::{ClientDecl, OperationDecl, PortDecl, SoapVersion, TypeExpr};
use crate::model::names::{self, Scope};
use crate::read::components::{BindingKind, Definitions, QName, Style};

/// Trailing words removed from client names (step 3).
const NOISE: &[&str] = &["Binding", "PortType", "Port", "Soap", "Soap11", "Soap12"];

/// The version of a SOAP binding kind.
pub(crate) fn version(kind: &BindingKind) -> Option<SoapVersion> {
    match kind {
        BindingKind::Soap11 => Some(SoapVersion::Soap11),
        BindingKind::Soap12 => Some(SoapVersion::Soap12),
        _ => None,
    }
}

/// Why `address` cannot be a client's endpoint, or `None` when it is an absolute `http:` or
/// `https:` URL with a host (RFC 3986 §3).
pub fn address_problem(address: &str) -> Option<String> {
    let a = address.trim();
    if a.is_empty() {
        return Some("is empty".to_owned());
    }
    if a.chars().any(char::is_whitespace) {
        return Some("contains white space".to_owned());
    }
    // RFC 3986 §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then ":".
    let scheme = a.split_once(':').map(|(s, _)| s).filter(|s| {
        s.starts_with(|c: char| c.is_ascii_alphabetic())
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    });
    let Some(scheme) = scheme else {
        return Some("is a relative URL (RFC 3986 §4.2)".to_owned());
    };
    let lower = scheme.to_ascii_lowercase();
    if lower != "http" && lower != "https" {
        return Some(format!(
            "uses the {scheme}: scheme (clients send over HTTP and HTTPS only)"
        ));
    }
    let rest = &a[scheme.len() + 1..];
    let Some(rest) = rest.strip_prefix("//") else {
        return Some(format!(
            "is not an absolute {lower} URL (no `//` and host after `{scheme}:`)"
        ));
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let (host, port) = if let Some(v6) = host_port.strip_prefix('[') {
        match v6.split_once(']') {
            Some((h, p)) => (h, p.strip_prefix(':')),
            None => return Some("has an IPv6 host without `]`".to_owned()),
        }
    } else {
        match host_port.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (host_port, None),
        }
    };
    if host.is_empty() {
        return Some("has no host".to_owned());
    }
    if let Some(p) = port {
        if !p.is_empty() && (!p.chars().all(|c| c.is_ascii_digit()) || p.parse::<u16>().is_err()) {
            return Some(format!("has the port {p:?}, which is not a port number"));
        }
    }
    None
}

/// Merges the clients of single bindings (each with one binding and version, no ports yet) into
/// clients of every binding of a portType that differs only in version, fills in their ports,
/// default endpoint and summary, and orders them (see the module documentation).
pub(crate) fn merge(per_binding: Vec<ClientDecl>, defs: &Definitions) -> Vec<ClientDecl> {
    // Every SOAP port in document order: (index, service, port).
    let mut first_port: BTreeMap<&QName, usize> = BTreeMap::new();
    let mut index = 0usize;
    for s in &defs.services {
        for p in &s.ports {
            first_port.entry(&p.binding).or_insert(index);
            index += 1;
        }
    }
    let mut sorted = per_binding;
    let key = |c: &ClientDecl| {
        let b = &c.bindings[0].0;
        (first_port.get(b).copied().unwrap_or(usize::MAX), b.clone())
    };
    sorted.sort_by_cached_key(key);
    let mut merged: Vec<ClientDecl> = Vec::new();
    for c in sorted {
        let same = merged
            .iter_mut()
            .find(|m| m.port_type == c.port_type && same_operations(&m.operations, &c.operations));
        match same {
            Some(m) => {
                m.bindings.extend(c.bindings);
                for v in c.versions {
                    if !m.versions.contains(&v) {
                        m.versions.push(v);
                    }
                }
            }
            None => merged.push(c),
        }
    }
    for c in &mut merged {
        c.ports = defs
            .services
            .iter()
            .flat_map(|s| {
                s.ports.iter().filter_map(|p| {
                    let (_, v) = c.bindings.iter().find(|(b, _)| *b == p.binding)?;
                    Some(PortDecl {
                        service: s.name.local.clone(),
                        port: p.name.clone(),
                        binding: p.binding.clone(),
                        version: *v,
                        address_problem: p.address.as_deref().and_then(address_problem),
                        address: p.address.clone(),
                        security: None,
                        addressed: false,
                        loc: p.loc.clone(),
                    })
                })
            })
            .collect();
        // The default version is the first port's; versions without ports follow.
        let mut versions: Vec<SoapVersion> = Vec::new();
        for v in c
            .ports
            .iter()
            .map(|p| p.version)
            .chain(c.versions.iter().copied())
        {
            if !versions.contains(&v) {
                versions.push(v);
            }
        }
        c.versions = versions;
        c.endpoint = c
            .ports
            .first()
            .and_then(PortDecl::usable_address)
            .map(str::to_owned);
        summarize(c);
    }
    merged
}

/// Fills in a client's [`summary`](ClientDecl::summary) from its bindings: which it was generated
/// from, and, when its ports are secured, that each port keeps its own WS-SecurityPolicy. Run
/// again after ports are selected or secured.
pub(crate) fn summarize(c: &mut ClientDecl) {
    let bindings: Vec<String> = c
        .bindings
        .iter()
        .map(|(b, v)| format!("`{}` ({v})", b.local))
        .collect();
    let secured = c.ports.iter().any(|p| p.security.is_some());
    c.summary = match bindings.as_slice() {
        [] => String::new(),
        [one] => format!(
            "Generated from binding {one} of portType `{}`.",
            c.port_type.local
        ),
        [init @ .., last] => {
            let how = if secured {
                "which have the same operations; each secured port's WS-SecurityPolicy is \
                 applied by `ClientBuilder::security_policy` with `…Client::port_policy` (a \
                 client built otherwise sends no security)"
            } else {
                "which differ only in SOAP version"
            };
            format!(
                "Generated from bindings {} and {last} of portType `{}`, {how}; {} is the default.",
                init.join(", "),
                c.port_type.local,
                c.default_version()
            )
        }
    };
}

/// Whether two bindings' operations are the same, in any order.
fn same_operations(a: &[OperationDecl], b: &[OperationDecl]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    fn sorted(ops: &[OperationDecl]) -> Vec<&OperationDecl> {
        let mut v: Vec<&OperationDecl> = ops.iter().collect();
        v.sort_by(|x, y| (&x.method, &x.wsdl_name).cmp(&(&y.method, &y.wsdl_name)));
        v
    }
    sorted(a) == sorted(b)
}

/// What tells a client apart from another of its portType (step 2).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Features {
    versions: Vec<SoapVersion>,
    style: Option<Style>,
    encoded: bool,
}

fn features(c: &ClientDecl, defs: &Definitions) -> Features {
    let mut versions = c.versions.clone();
    versions.sort();
    let mut styles = c
        .bindings
        .iter()
        .filter_map(|(b, _)| defs.bindings.get(b))
        .flat_map(|b| {
            b.operations
                .iter()
                .map(|o| o.style.or(b.style).unwrap_or(Style::Document))
        });
    let first = styles.next();
    let style = match first {
        Some(s) if styles.all(|t| t == s) => Some(s),
        _ => None,
    };
    Features {
        versions,
        style,
        encoded: c.operations.iter().any(|o| o.encoded),
    }
}

/// `name` without trailing noise words, as long as a valid name remains (step 3).
pub(crate) fn strip_noise(name: &str) -> String {
    let mut s = name.to_owned();
    loop {
        let shorter = NOISE.iter().find_map(|w| {
            let rest = s.strip_suffix(w)?;
            // A prefix of a type name is an identifier, unless empty or the keyword `Self`.
            (!rest.is_empty() && rest != "Self").then(|| rest.to_owned())
        });
        match shorter {
            Some(r) => s = r,
            None => return s,
        }
    }
}

/// The key names are compared by (as [`Scope`] does).
fn key(s: &str) -> String {
    s.to_lowercase().replace('_', "")
}

/// Names the clients (see the module documentation), avoiding the names `types` already holds;
/// reserves the chosen names and their `…Client`, `…BlockingClient` in `types`. Returns the base
/// name of each portType with a client (step 3 applied, before any step 2 suffix), for fault set
/// names.
pub(crate) fn name(
    clients: &mut [ClientDecl],
    defs: &Definitions,
    types: &mut Scope,
) -> BTreeMap<QName, String> {
    // The portTypes of each service's SOAP ports.
    let mut service_types: BTreeMap<String, Vec<&QName>> = BTreeMap::new();
    for c in clients.iter() {
        for p in &c.ports {
            let e = service_types.entry(p.service.clone()).or_default();
            if !e.contains(&&c.port_type) {
                e.push(&c.port_type);
            }
        }
    }
    let bases: Vec<String> = clients
        .iter()
        .map(|c| {
            let service = c
                .ports
                .first()
                .map(|p| &p.service)
                .filter(|s| service_types.get(*s).is_some_and(|t| t.len() == 1));
            names::type_name(service.unwrap_or(&c.port_type.local))
        })
        .collect();
    // Step 2: clients of one portType and base told apart.
    let mut raw: Vec<String> = bases.clone();
    let mut suffix: Vec<String> = vec![String::new(); clients.len()];
    let mut groups: BTreeMap<(QName, String), Vec<usize>> = BTreeMap::new();
    for (i, c) in clients.iter().enumerate() {
        groups
            .entry((c.port_type.clone(), key(&bases[i])))
            .or_default()
            .push(i);
    }
    for members in groups.values().filter(|m| m.len() > 1) {
        let fs: Vec<Features> = members
            .iter()
            .map(|&i| features(&clients[i], defs))
            .collect();
        let vary = |f: &dyn Fn(&Features) -> String| {
            let first = f(&fs[0]);
            fs.iter().any(|x| f(x) != first)
        };
        let version = |f: &Features| match f.versions.as_slice() {
            [SoapVersion::Soap11] => "Soap11".to_owned(),
            [SoapVersion::Soap12] => "Soap12".to_owned(),
            _ => String::new(),
        };
        let style = |f: &Features| match f.style {
            Some(Style::Rpc) => "Rpc".to_owned(),
            Some(Style::Document) => "Document".to_owned(),
            None => String::new(),
        };
        let encoding = |f: &Features| if f.encoded { "Encoded" } else { "Literal" }.to_owned();
        let parts: Vec<&dyn Fn(&Features) -> String> = vec![&version, &style, &encoding];
        let parts: Vec<&dyn Fn(&Features) -> String> =
            parts.into_iter().filter(|p| vary(*p)).collect();
        let suffixes: Vec<String> = fs
            .iter()
            .map(|f| parts.iter().map(|p| p(f)).collect())
            .collect();
        let mut seen: Vec<String> = suffixes.iter().map(|s| key(s)).collect();
        seen.sort();
        seen.dedup();
        if seen.len() == members.len() {
            for (&i, s) in members.iter().zip(suffixes) {
                suffix[i] = s;
            }
        } else {
            for &i in members {
                raw[i] = names::type_name(&clients[i].bindings[0].0.local);
            }
        }
    }
    // Step 3: stripped where that stays unique.
    let stripped: Vec<String> = raw
        .iter()
        .zip(&suffix)
        .map(|(r, s)| format!("{}{s}", strip_noise(r)))
        .collect();
    let mut wanted: BTreeMap<String, usize> = BTreeMap::new();
    for s in &stripped {
        *wanted.entry(key(s)).or_default() += 1;
    }
    let free = |scope: &Scope, n: &str| {
        [
            n.to_owned(),
            format!("{n}Client"),
            format!("{n}BlockingClient"),
        ]
        .iter()
        .all(|x| !scope.is_taken(x))
    };
    let mut port_type_names: BTreeMap<QName, String> = BTreeMap::new();
    for (i, c) in clients.iter_mut().enumerate() {
        let candidate = if wanted[&key(&stripped[i])] == 1 && free(types, &stripped[i]) {
            stripped[i].clone()
        } else {
            format!("{}{}", raw[i], suffix[i])
        };
        // Step 4.
        let binding = names::type_name(&c.bindings[0].0.local);
        let written = format!("{}{}", raw[i], suffix[i]);
        let chosen = [&candidate, &written, &binding]
            .into_iter()
            .find(|n| free(types, n))
            .cloned()
            .unwrap_or_else(|| {
                (2..)
                    .map(|n| format!("{candidate}{n}"))
                    .find(|n| free(types, n))
                    .unwrap_or_default()
            });
        for x in [
            chosen.clone(),
            format!("{chosen}Client"),
            format!("{chosen}BlockingClient"),
        ] {
            types.unique(&x);
        }
        let base = if suffix[i].is_empty() && raw[i] == bases[i] {
            chosen.clone()
        } else {
            strip_noise(&bases[i])
        };
        port_type_names.entry(c.port_type.clone()).or_insert(base);
        c.name = chosen;
    }
    port_type_names
}

/// The address warnings of `clients`' ports, in client and port order.
pub(crate) fn warnings(clients: &[ClientDecl]) -> Vec<Warning> {
    let mut out = Vec::new();
    for c in clients {
        for p in &c.ports {
            let (Some(a), Some(problem)) = (&p.address, &p.address_problem) else {
                continue;
            };
            let ctor = if p.version == c.default_version() {
                "new".to_owned()
            } else {
                match p.version {
                    SoapVersion::Soap11 => "soap11".to_owned(),
                    SoapVersion::Soap12 => "soap12".to_owned(),
                }
            };
            out.push(Warning {
                message: format!(
                    "the address {a:?} of port {} (service {}) {problem}: it is not used as the \
                     default endpoint of {}Client; give the URL to {}Client::{ctor}",
                    p.port, p.service, c.name, c.name
                ),
                loc: p.loc.clone(),
            });
        }
    }
    out
}

/// A warning for each port whose `binding` names no binding of the description (WSDL 1.1
/// §2.7: it must name one): the port gives no client its address.
pub(crate) fn unbound_ports(defs: &Definitions) -> Vec<Warning> {
    defs.services
        .iter()
        .flat_map(|s| s.ports.iter().map(move |p| (s, p)))
        .filter(|(_, p)| !defs.bindings.contains_key(&p.binding))
        .map(|(s, p)| Warning {
            message: format!(
                "port {} of service {} names the binding {}, which is not defined (WSDL 1.1 \
                 §2.7): the port is left out, and no client takes its address",
                p.name, s.name.local, p.binding
            ),
            loc: p.loc.clone(),
        })
        .collect()
}

/// The name of a fault set (see the module documentation) before it is made unique.
///
/// `variants` are the set's variant names; `users` the operations declaring it, as (portType,
/// WSDL operation name); `whole` is the base client name of the portType when every one of its
/// operations declares the set.
pub(crate) fn fault_set_name(
    variants: &[&str],
    users: &[(QName, String)],
    whole: Option<&str>,
) -> String {
    if let Some(client) = whole {
        return format!("{client}Faults");
    }
    let member = |v: &str| {
        let mut m = v;
        while let Some(rest) = m.strip_suffix("Fault").filter(|r| !r.is_empty()) {
            m = rest;
        }
        m.to_owned()
    };
    match (variants, users) {
        (vs, _) if vs.len() <= 3 => {
            let joined: Vec<String> = vs.iter().map(|v| member(v)).collect();
            format!("{}Faults", joined.join("Or"))
        }
        (_, [(_, op)]) => format!("{}Faults", names::type_name(op)),
        ([a, b, rest @ ..], _) => {
            format!("{}Or{}And{}MoreFaults", member(a), member(b), rest.len())
        }
        _ => "Faults".to_owned(),
    }
}

/// One header element a client's operations declare (WSDL 1.1 §3.7 `soap:header`), in the
/// request of some and the response of some: its `DeclaredHeader` constant's name and type.
#[derive(Debug, Clone)]
pub struct HeaderConst<'a> {
    /// The header's element.
    pub xml: &'a QName,
    /// Its type (the element's; a request header's occurrence is `Optional`).
    pub ty: &'a TypeExpr,
    /// The constant's name: `SESSION_HEADER`.
    pub cname: String,
    /// The WSDL names of the operations that send it.
    pub sent_by: Vec<&'a str>,
    /// The WSDL names of the operations whose responses carry it.
    pub received_by: Vec<&'a str>,
}

/// Operation names as a short list: all of them up to five (`` `a`, `b` ``), else the first
/// three and how many more; quoted in backticks when `code`.
pub fn short_list(ops: &[&str], code: bool) -> String {
    let q = |o: &&str| {
        if code {
            format!("`{o}`")
        } else {
            (*o).to_owned()
        }
    };
    if ops.len() <= 5 {
        return ops.iter().map(q).collect::<Vec<_>>().join(", ");
    }
    let first: Vec<String> = ops[..3].iter().map(q).collect();
    format!(
        "{} operations ({} and {} more)",
        ops.len(),
        first.join(", "),
        ops.len() - 3
    )
}

/// The constants of the headers of `c`'s operations, each element once, in the order first
/// met (requests first, operation by operation): `SESSION_HEADER` for `{ns}SessionHeader` and
/// for `{ns}Session`, a second element of the same name in another namespace `…_HEADER_2`.
pub fn header_consts(c: &ClientDecl) -> Vec<HeaderConst<'_>> {
    let mut out: Vec<HeaderConst<'_>> = Vec::new();
    let mut used = std::collections::BTreeSet::new();
    for op in &c.operations {
        let sent = op.headers.iter().map(|h| (h, true));
        let received = op.response_headers.iter().map(|h| (h, false));
        for (h, is_sent) in sent.chain(received) {
            let at = match out.iter().position(|k| k.xml == &h.xml) {
                Some(i) => i,
                None => {
                    let snake = names::field_name(&h.xml.local);
                    let upper = snake.trim_start_matches("r#").to_uppercase();
                    let base = if upper.ends_with("_HEADER") || upper == "HEADER" {
                        upper
                    } else {
                        format!("{upper}_HEADER")
                    };
                    let mut cname = base.clone();
                    let mut n = 2;
                    while !used.insert(cname.clone()) {
                        cname = format!("{base}_{n}");
                        n += 1;
                    }
                    out.push(HeaderConst {
                        xml: &h.xml,
                        ty: &h.ty,
                        cname,
                        sent_by: Vec::new(),
                        received_by: Vec::new(),
                    });
                    out.len() - 1
                }
            };
            let list = if is_sent {
                &mut out[at].sent_by
            } else {
                &mut out[at].received_by
            };
            if !list.contains(&op.wsdl_name.as_str()) {
                list.push(&op.wsdl_name);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses() {
        for ok in [
            "http://www.webservicex.com/globalweather.asmx",
            "https://ec2.amazonaws.com/",
            "HTTP://example.com:8080/x?y#z",
            "http://user:pw@[::1]:80/",
            "http://localhost:/",
        ] {
            assert_eq!(address_problem(ok), None, "{ok}");
        }
        for (bad, why) in [
            ("/services/Echo", "relative"),
            ("Echo.asmx", "relative"),
            ("", "empty"),
            ("mailto:a@b.c", "mailto: scheme"),
            ("http:8080://localhost/sql", "no `//`"),
            ("http://server:port/CICS", "\"port\""),
            ("http:///x", "no host"),
            ("http://a b/", "white space"),
        ] {
            let p = address_problem(bad).unwrap_or_else(|| panic!("{bad} passes"));
            assert!(p.contains(why), "{bad}: {p}");
        }
    }

    #[test]
    fn noise_words() {
        assert_eq!(strip_noise("GlobalWeatherSoap12"), "GlobalWeather");
        assert_eq!(strip_noise("StockQuotePortType"), "StockQuote");
        assert_eq!(strip_noise("AwdbWebServiceSoapBinding"), "AwdbWebService");
        assert_eq!(strip_noise("PortType"), "PortType");
        assert_eq!(strip_noise("SoapBinding"), "Soap");
        assert_eq!(strip_noise("SelfPort"), "SelfPort");
        assert_eq!(strip_noise("CalculatorService"), "CalculatorService");
        assert_eq!(strip_noise("Airport"), "Airport");
    }

    #[test]
    fn fault_set_names() {
        let users = |ops: &[&str]| -> Vec<(QName, String)> {
            ops.iter()
                .map(|o| (QName::new("urn:x", "P"), (*o).to_owned()))
                .collect()
        };
        assert_eq!(
            fault_set_name(&["InvalidLoginFault"], &users(&["Login", "Logout"]), None),
            "InvalidLoginFaults"
        );
        assert_eq!(
            fault_set_name(&["InvalidLoginFault", "RuntimeFault"], &users(&["A"]), None),
            "InvalidLoginOrRuntimeFaults"
        );
        assert_eq!(
            fault_set_name(&["A", "B", "C", "D"], &users(&["CreateVM_Task"]), None),
            "CreateVmTaskFaults"
        );
        assert_eq!(
            fault_set_name(&["AFault", "B", "C", "D"], &users(&["X", "Y"]), None),
            "AOrBAnd2MoreFaults"
        );
        assert_eq!(
            fault_set_name(&["Fault"], &users(&["X"]), Some("Weather")),
            "WeatherFaults"
        );
        assert_eq!(
            fault_set_name(&["Fault"], &users(&["X", "Y"]), None),
            "FaultFaults"
        );
        assert_eq!(
            fault_set_name(&["HostConnectFaultFault"], &users(&["X", "Y"]), None),
            "HostConnectFaults"
        );
    }
}
