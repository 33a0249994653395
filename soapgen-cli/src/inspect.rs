//! `soapgen inspect`: what a WSDL holds, for finding one's way in a big one: its clients with
//! their SOAP versions, bindings and ports, each operation as the Rust signature of its method,
//! the types (`--types`), what was not generated and why; or, for one operation (`--operation`),
//! the HTTP headers and a sample envelope of its request, and what generating only it keeps.

use std::fmt::Write as _;
use std::path::Path;

use clap::Args;
use soapgen_build::emit::sample;
use soapgen_build::model::ir::{
    Base, ClientDecl, Module, Occurrence, OperationDecl, SoapVersion, TypeDecl, TypeExpr,
};
use soapgen_build::model::security::PortSecurity;
use soapgen_build::{Builder, Error, ErrorKind, Errors};

use crate::input::InputArgs;

/// `soapgen inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// The WSDL and catalog.
    #[command(flatten)]
    pub input: InputArgs,
    /// Also list every generated type with its fields.
    #[arg(long)]
    pub types: bool,
    /// Print a sample request for this operation instead: the HTTP headers and a SOAP envelope with
    /// placeholder values, for each binding that has it, and how many types generating only it
    /// (`generate --operation`) keeps. Takes the WSDL operation name or the Rust method name.
    #[arg(long, value_name = "NAME")]
    pub operation: Option<String>,
    /// With `--operation`: the request as a client generated with `--default-namespaces` writes
    /// it (default-namespace declarations instead of prefixes in the Body).
    #[arg(long)]
    pub default_namespaces: bool,
    /// Also show this operation's `…_stream` method, as `generate --stream NAME` makes it (WSDL
    /// or method name, repeatable); an operation that cannot be streamed is an error saying why.
    #[arg(long = "stream", value_name = "NAME")]
    pub stream: Vec<String>,
}

/// Runs `soapgen inspect`: the summary of the WSDL's model ([`inspect`]), or with `--operation`
/// a sample request for it ([`sample_request`]) and what generating only it keeps.
///
/// # Errors
///
/// Generation errors (with locations); no operation of that name.
pub fn run(args: &InspectArgs) -> Result<String, Errors> {
    // Every port's policy is shown, whether soapgen can enforce it or not.
    let b = args
        .input
        .builder()?
        .manual_security(["*"])
        .stream_operations(&args.stream);
    let g = b.generate_one(&args.input.wsdl)?;
    match &args.operation {
        Some(op) => {
            let mut out = sample_request(&g.module, op, args.default_namespaces)?;
            out.push_str(&selection_summary(&b, &args.input.wsdl, &g.module, op)?);
            Ok(out)
        }
        None => Ok(inspect(&g.module, args.types)),
    }
}

/// A readable summary of a model: clients with their SOAP versions, bindings and ports, operations
/// as Rust signatures, notes and warnings; with `types`, every type and its fields.
pub fn inspect(m: &Module, types: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", m.source);
    for c in &m.clients {
        client_summary(&mut out, c);
    }
    if types {
        let _ = writeln!(out, "\ntypes:");
        for t in &m.types {
            type_summary(&mut out, t);
        }
    } else {
        let _ = writeln!(out, "\n{} types (list them with --types)", m.types.len());
    }
    for n in &m.notes {
        let _ = writeln!(out, "note: {n}");
    }
    for w in &m.warnings {
        // A port's WS-SecurityPolicy is shown with the port.
        if !w.message.contains("its WS-SecurityPolicy") {
            let _ = writeln!(out, "warning: {w}");
        }
    }
    out
}

/// A client: its trait and SOAP versions, bindings, ports, and each operation as the Rust
/// signature of its method.
fn client_summary(out: &mut String, c: &ClientDecl) {
    let versions = match c.versions.as_slice() {
        [one] => one.to_string(),
        vs => format!(
            "SOAP {}, {} by default",
            vs.iter()
                .map(|v| v.number())
                .collect::<Vec<_>>()
                .join(" and "),
            c.default_version().number()
        ),
    };
    let _ = writeln!(
        out,
        "\ntrait {} ({versions}; client {}Client)",
        c.name, c.name
    );
    let bindings: Vec<String> = c
        .bindings
        .iter()
        .map(|(b, v)| format!("{} ({v})", b.local))
        .collect();
    let _ = writeln!(
        out,
        "  {} {} of portType {}",
        if bindings.len() == 1 {
            "binding"
        } else {
            "bindings"
        },
        bindings.join(", "),
        c.port_type.local
    );
    for p in &c.ports {
        let address = match (&p.address, &p.address_problem) {
            (Some(a), None) => a.clone(),
            (Some(a), Some(problem)) => format!("{a} (not the default endpoint: it {problem})"),
            (None, _) => "(no address)".to_owned(),
        };
        let _ = writeln!(
            out,
            "  service {}, port {} ({}): {address}",
            p.service, p.port, p.version
        );
        if let Some(sec) = &p.security {
            security_summary(out, sec);
        }
    }
    if c.ports.is_empty() {
        let _ = writeln!(
            out,
            "  (no service port uses its bindings: give the endpoint when constructing the client)"
        );
    }
    // Header elements (WSDL 1.1 §3.7 `soap:header`): constants of the client, request headers set
    // on it rather than passed to the methods.
    let consts = soapgen_build::model::clients::header_consts(c);
    for k in &consts {
        let mut line = format!(
            "  const {}: DeclaredHeader<{}>  // {{{}}}{}",
            k.cname,
            type_text(&soapgen_build::model::ir::TypeExpr {
                card: soapgen_build::model::ir::Occurrence::One,
                ..k.ty.clone()
            }),
            k.xml.ns,
            k.xml.local
        );
        if !k.sent_by.is_empty() {
            line.push_str(&format!(
                "; request header of {}: client.with_header({}Client::{}, &value)",
                soapgen_build::model::clients::short_list(&k.sent_by, false),
                c.name,
                k.cname
            ));
        }
        if !k.received_by.is_empty() {
            line.push_str(&format!(
                "; response header of {}: response.header(&{}Client::{})",
                soapgen_build::model::clients::short_list(&k.received_by, false),
                c.name,
                k.cname
            ));
        }
        let _ = writeln!(out, "{line}");
    }
    for op in &c.operations {
        let _ = writeln!(out, "  {}", signature(op));
        let sent: Vec<&str> = op
            .headers
            .iter()
            .filter_map(|h| consts.iter().find(|k| k.xml == &h.xml))
            .map(|k| k.cname.as_str())
            .collect();
        if !sent.is_empty() {
            let _ = writeln!(
                out,
                "      // request headers, set with with_header: {}",
                sent.join(", ")
            );
        }
        // The streamed method after the plain one's comments (it sends the same headers).
        if let Some(streamed) = stream_signature(op) {
            let _ = writeln!(out, "  {streamed}");
        }
    }
}

/// What a port's WS-SecurityPolicy demands, the credentials a client needs, and what soapgen
/// cannot enforce of it.
fn security_summary(out: &mut String, sec: &PortSecurity) {
    use soapgen_build::model::security::describe;
    let mut refused: Vec<String> = Vec::new();
    for op in &sec.operations {
        for m in [&op.input, &op.output] {
            if m.chosen().is_none() && !m.is_unsecured() {
                for r in m.alternatives.iter().flat_map(|a| &a.refused) {
                    let line = r.to_string();
                    if !refused.contains(&line) {
                        refused.push(line);
                    }
                }
            }
        }
    }
    if !refused.is_empty() {
        let _ = writeln!(out, "    security: cannot be enforced by soapgen:");
        for r in refused {
            let _ = writeln!(out, "      {r}");
        }
        return;
    }
    let _ = writeln!(out, "    security: {}", describe::summary(sec));
    let mut responses: Vec<String> = Vec::new();
    for op in &sec.operations {
        if let Some(p) = op.output.chosen() {
            let text = describe::response(p);
            if !responses.contains(&text) {
                responses.push(text);
            }
        }
    }
    if !responses.is_empty() {
        let _ = writeln!(out, "    responses must have: {}", responses.join(" | "));
    }
    let creds = describe::credentials(sec);
    if !creds.is_empty() {
        let _ = writeln!(out, "    credentials: {}", creds.join("; "));
    }
}

/// An operation as the Rust signature of its method, its soapAction in a comment.
fn signature(op: &OperationDecl) -> String {
    let params: Vec<String> = op
        .params
        .iter()
        .map(|p| format!("{}: {}", p.name, type_text(&p.ty)))
        // SwA parts (WSDL 1.1 §5): MIME parts beside the envelope.
        .chain(op.attachments.iter().map(|a| {
            format!(
                "{}: Attachment /* MIME part {}, {} */",
                a.name,
                a.part,
                a.default_content_type()
            )
        }))
        .collect();
    let mut ret = op
        .ret
        .as_ref()
        .map(type_text)
        .unwrap_or_else(|| "()".to_owned());
    if !op.response_attachments.is_empty() {
        let parts: Vec<String> = op
            .response_attachments
            .iter()
            .map(|a| format!("Attachment /* MIME part {} */", a.part))
            .collect();
        ret = format!("({ret}, {})", parts.join(", "));
    }
    let err = op
        .faults
        .clone()
        .map(|f| format!("FaultError<{f}>"))
        .unwrap_or_else(|| "Error".into());
    format!(
        "async fn {}(&self{}{}) -> Result<{ret}, {err}>;{}",
        op.method,
        if params.is_empty() { "" } else { ", " },
        params.join(", "),
        if op.action.is_empty() {
            String::new()
        } else {
            format!("  // soapAction {}", op.action)
        }
    )
}

/// The signature of the `…_stream` method of a streamed operation `op` (`generate --stream`):
/// its items, those of the array result or the repeated result element.
fn stream_signature(op: &OperationDecl) -> Option<String> {
    if !op.stream {
        return None;
    }
    let mut item = match &op.stream_items {
        Some(items) => items.ty.clone(),
        None => op.ret.clone()?,
    };
    item.card = match item.card {
        Occurrence::ManyNillable => Occurrence::Nillable,
        _ => Occurrence::One,
    };
    let plain = signature(op);
    let (_, params) = plain.split_once("(&self")?;
    let (params, _) = params.split_once(") -> Result<")?;
    let err = op
        .faults
        .clone()
        .map(|f| format!("FaultError<{f}>"))
        .unwrap_or_else(|| "Error".into());
    Some(format!(
        "async fn {}_stream(&self{params}) -> Result<ItemStream<{}, {err}>, {err}>;",
        op.method,
        type_text(&item)
    ))
}

/// A type: its kind, name and origin, and its fields, values or variants.
fn type_summary(out: &mut String, t: &TypeDecl) {
    match t {
        TypeDecl::Struct(s) => {
            let _ = writeln!(out, "  struct {} ({})", s.name, s.origin);
            for f in &s.fields {
                let _ = writeln!(out, "    {}: {}", f.name, type_text(&f.ty));
            }
        }
        TypeDecl::Enum(e) => {
            let vals: Vec<&str> = e.values.iter().map(|(_, v)| v.as_str()).collect();
            let _ = writeln!(out, "  enum {} = {:?}", e.name, vals);
        }
        TypeDecl::Alias(a) => {
            let _ = writeln!(
                out,
                "  type {} = {}",
                a.name,
                type_text(&TypeExpr::one(a.target.clone()))
            );
        }
        TypeDecl::Faults(f) => {
            let _ = writeln!(
                out,
                "  faults {} = {:?}",
                f.name,
                f.variants.iter().map(|v| v.0.as_str()).collect::<Vec<_>>()
            );
        }
        TypeDecl::Derivations(d) => {
            let _ = writeln!(out, "  xsi:type {} ({})", d.name, d.base);
            for v in &d.variants {
                let _ = writeln!(out, "    {}({})", v.name, v.xsd_type);
            }
        }
        TypeDecl::Choice(c) => {
            let _ = writeln!(out, "  choice {} ({})", c.name, c.origin);
            for v in &c.variants {
                let _ = writeln!(out, "    {}({})", v.name, type_text(&v.ty));
            }
        }
    }
}

/// A type as the summary writes it: the Rust type without paths (`Option<Vec<…>>`, runtime types
/// by their last segment).
fn type_text(t: &TypeExpr) -> String {
    fn base(b: &Base) -> String {
        match b {
            Base::Std(s) => (*s).to_owned(),
            Base::Runtime(p) => p.rsplit("::").next().unwrap_or(p).to_owned(),
            Base::Named(n) => n.clone(),
            Base::List(i) => format!("List<{}>", base(i)),
            Base::SoapArray(i) => format!("SoapArray<{}>", base(i)),
        }
    }
    let mut inner = base(&t.base);
    if t.boxed {
        inner = format!("Box<{inner}>");
    }
    match t.card {
        Occurrence::One => inner,
        Occurrence::Optional => format!("Option<{inner}>"),
        Occurrence::Many => format!("Vec<{inner}>"),
        Occurrence::Nillable => format!("Nillable<{inner}>"),
        Occurrence::OptionalNillable => format!("OptionalNillable<{inner}>"),
        Occurrence::ManyNillable => format!("Vec<Nillable<{inner}>>"),
    }
}

/// The constructor of a client for SOAP `version` besides `new` (the default version's).
fn constructor(version: SoapVersion) -> &'static str {
    match version {
        SoapVersion::Soap11 => "soap11",
        SoapVersion::Soap12 => "soap12",
    }
}

/// The HTTP headers and a sample envelope for operation `name` (WSDL or Rust name) in every
/// client that has it, for each SOAP version the client speaks.
///
/// # Errors
///
/// No operation of that name, with the names there are.
pub fn sample_request(m: &Module, name: &str, default_namespaces: bool) -> Result<String, Error> {
    let mut out = String::new();
    for c in &m.clients {
        for op in c
            .operations
            .iter()
            .filter(|o| o.wsdl_name == name || o.method.trim_start_matches("r#") == name)
        {
            for &v in &c.versions {
                if !out.is_empty() {
                    out.push('\n');
                }
                let how = if c.versions.len() == 1 {
                    String::new()
                } else if v == c.default_version() {
                    "the default; ".to_owned()
                } else {
                    format!("{}Client::{}; ", c.name, constructor(v))
                };
                let _ = writeln!(
                    out,
                    "operation {} in {}, {v} ({how}{}Client::{})",
                    op.wsdl_name, c.name, c.name, op.method
                );
                let endpoint = c.endpoint_for(v).unwrap_or("<endpoint>");
                if let Some(l) = &op.soap_response {
                    // SOAP 1.2's SOAP-response MEP (Part 2 §6.3): the request is the IRI alone.
                    let envelope = sample::request_envelope(m, v, op, false, None);
                    let iri = soapgen_runtime::message::soap_response_iri(
                        endpoint,
                        &l.template,
                        &l.query_separator,
                        &envelope,
                    )
                    .unwrap_or_else(|e| format!("<{endpoint}: {e}>"));
                    let _ = writeln!(out, "GET {iri}");
                    let _ = writeln!(out, "Accept: application/soap+xml");
                    continue;
                }
                let _ = writeln!(out, "POST {endpoint}");
                // SwA (WSDL 1.1 §5): the envelope is the root part of a multipart/related body.
                let swa = !op.attachments.is_empty();
                let mut root_type = String::new();
                for (h, value) in sample::request_headers(v, op) {
                    if swa && h == "Content-Type" {
                        let media = value.split(';').next().unwrap_or("");
                        let _ = writeln!(
                            out,
                            "Content-Type: multipart/related; type=\"{media}\"; \
                             boundary=\"<boundary>\"; start=\"<root.message@soapgen>\""
                        );
                        root_type = value;
                    } else {
                        let _ = writeln!(out, "{h}: {value}");
                    }
                }
                out.push('\n');
                if swa {
                    let _ = writeln!(
                        out,
                        "--<boundary>\nContent-Type: {root_type}\nContent-ID: <root.message@soapgen>\n"
                    );
                }
                let addressing =
                    c.addressing
                        .iter()
                        .find(|(sv, _)| *sv == v)
                        .map(|(_, version)| sample::SampleAddressing {
                            version: *version,
                            to: endpoint,
                        });
                out.push_str(&sample::request_envelope(
                    m,
                    v,
                    op,
                    default_namespaces,
                    addressing,
                ));
                for a in &op.attachments {
                    let _ = writeln!(
                        out,
                        "--<boundary>\nContent-Type: {}\nContent-Transfer-Encoding: binary\n\
                         Content-ID: <{}=…@soapgen>\n\n(the bytes of `{}`)",
                        a.default_content_type(),
                        a.part,
                        a.name
                    );
                }
                if swa {
                    out.push_str("--<boundary>--\n");
                }
            }
        }
    }
    if out.is_empty() {
        let mut names: Vec<&str> = m
            .clients
            .iter()
            .flat_map(|c| c.operations.iter().map(|o| o.wsdl_name.as_str()))
            .collect();
        names.sort_unstable();
        names.dedup();
        return Err(Error::new(
            ErrorKind::Undefined(format!("operation {name:?} in {}", m.source)),
            None,
        )
        .with_hint(if names.is_empty() {
            "it has no SOAP operations".to_owned()
        } else {
            format!("its operations: {}", names.join(", "))
        }));
    }
    Ok(out)
}

/// What generating only operation `name` (WSDL or Rust name, found in `full`) keeps, as a line for
/// `inspect --operation`.
fn selection_summary(
    b: &Builder,
    wsdl: &Path,
    full: &Module,
    name: &str,
) -> Result<String, Errors> {
    let Some(op) = full
        .clients
        .iter()
        .flat_map(|c| &c.operations)
        .find(|o| o.wsdl_name == name || o.method.trim_start_matches("r#") == name)
    else {
        return Ok(String::new());
    };
    let selected = b
        .clone()
        .operations([op.wsdl_name.as_str()])
        .generate_one(wsdl)?;
    let m = &selected.module;
    let ops: usize = m.clients.iter().map(|c| c.operations.len()).sum();
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    Ok(format!(
        "\n`soapgen generate --operation {}` keeps {} of the {} types ({} in {})\n",
        op.wsdl_name,
        m.types.len(),
        full.types.len(),
        plural(ops, "operation", "operations"),
        plural(m.clients.len(), "client", "clients"),
    ))
}
