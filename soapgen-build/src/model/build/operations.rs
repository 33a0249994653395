//! Operations of a binding (WSDL 1.1 §2.4, §3.4 soap:operation): each becomes a client method by
//! its style (document or rpc, [`document`](super::document), [`rpc`](super::rpc)), with its
//! fault set (§2.4.5 faults) and attachments (§5 MIME binding); operations that cannot be
//! generated are dropped with a located note when asked.

use std::collections::{BTreeMap, BTreeSet};

use super::context::{add_prose, prose, undefined, unsupported, Builder, R};
use crate::error::{Error, ErrorKind, Loc, Warning};
use crate::model::clients;
use crate::model::ir::*;
use crate::model::names::{self, Scope};
use crate::read::components::*;

impl<'d> Builder<'d> {
    /// With `skip_unsupported`: drops the types that failed and every type that reaches one, and the
    /// operations that use any of them (each listed in the notes with the reason).
    pub(super) fn drop_unsupported(
        &mut self,
        clients: &mut [ClientDecl],
        failed: &BTreeMap<String, Error>,
    ) {
        fn named(b: &Base) -> Option<&str> {
            match b {
                Base::Named(n) => Some(n),
                Base::List(i) => named(i),
                _ => None,
            }
        }
        // Which failed type each broken type reaches.
        let mut broken: BTreeMap<String, String> =
            failed.keys().map(|k| (k.clone(), k.clone())).collect();
        loop {
            let mut grew = false;
            for (name, d) in &self.decls {
                if broken.contains_key(name) {
                    continue;
                }
                let refs: Vec<&str> = match d {
                    TypeDecl::Struct(st) => {
                        st.fields.iter().filter_map(|f| named(&f.ty.base)).collect()
                    }
                    TypeDecl::Alias(a) => named(&a.target).into_iter().collect(),
                    TypeDecl::Faults(f) => f.variants.iter().filter_map(|v| named(&v.1)).collect(),
                    TypeDecl::Choice(c) => c
                        .variants
                        .iter()
                        .filter_map(|v| named(&v.ty.base))
                        .collect(),
                    TypeDecl::Derivations(d) => d
                        .variants
                        .iter()
                        .filter_map(|v| named(&v.ty.base))
                        .collect(),
                    TypeDecl::Enum(_) => Vec::new(),
                };
                if let Some(cause) = refs.iter().find_map(|r| broken.get(*r)) {
                    broken.insert(name.clone(), cause.clone());
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
        self.decls.retain(|n, _| !broken.contains_key(n));
        for c in clients.iter_mut() {
            let client = c.name.clone();
            c.operations.retain(|op| {
                let types = op
                    .params
                    .iter()
                    .chain(op.headers.iter())
                    .chain(op.response_headers.iter())
                    .map(|p| &p.ty.base)
                    .chain(op.ret.iter().map(|t| &t.base))
                    .filter_map(named)
                    .chain(op.faults.as_deref());
                let cause = types.into_iter().find_map(|t| broken.get(t).map(|c| (t, c)));
                match cause {
                    Some((t, c)) => {
                        self.notes.push(format!(
                            "operation {} of client {client} not generated: it uses {t}, which needs {c}: {}",
                            op.wsdl_name, failed[c]
                        ));
                        false
                    }
                    None => true,
                }
            });
        }
    }

    /// The client of one SOAP binding, without name, ports or summary yet: [`clients::merge`]
    /// merges the clients of bindings that differ only in SOAP version and fills them in.
    pub(super) fn client(&mut self, binding: &Binding) -> Result<ClientDecl, Vec<Error>> {
        let defs = self.defs;
        let Some(pt) = defs.port_types.get(&binding.port_type) else {
            return Err(vec![undefined(
                format!("portType {}", binding.port_type),
                &binding.loc,
            )]);
        };
        let Some(version) = clients::version(&binding.kind) else {
            return Err(vec![unsupported(
                format!("binding {} is not a SOAP binding", binding.name),
                &binding.loc,
            )]);
        };
        let mut errors = Vec::new();
        let mut ops = Vec::new();
        let methods = method_names(binding, pt);
        for (bop, method) in binding.operations.iter().zip(methods) {
            if !self.opts.selection.selects(&bop.name) {
                continue;
            }
            match self.operation(binding, pt, bop, method) {
                Ok(op) => ops.push(op),
                Err(e)
                    if self.opts.skip_unsupported
                        && matches!(e.kind, ErrorKind::Unsupported(_)) =>
                {
                    self.notes.push(format!(
                        "operation {} of binding {} not generated: {e}",
                        bop.name, binding.name.local
                    ));
                }
                Err(e) => errors.push(e),
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let service_doc = defs
            .services
            .iter()
            .find(|s| s.ports.iter().any(|p| p.binding == binding.name))
            .and_then(|s| s.doc.as_ref());
        // The WSDL's, the service's, the portType's and the binding's, each once.
        let mut doc = None;
        for d in [
            defs.doc.as_ref(),
            service_doc,
            pt.doc.as_ref(),
            binding.doc.as_ref(),
        ]
        .into_iter()
        .flatten()
        {
            add_prose(&mut doc, None, d);
        }
        Ok(ClientDecl {
            name: String::new(),
            doc,
            summary: String::new(),
            port_type: pt.name.clone(),
            bindings: vec![(binding.name.clone(), version)],
            versions: vec![version],
            namespace: defs.target_namespace.clone(),
            endpoint: None,
            ports: Vec::new(),
            addressing: Vec::new(),
            header_docs: self.header_docs(&ops),
            operations: ops,
        })
    }

    /// Names the fault sets ([`clients`] documents how), adds their types and gives each operation
    /// its set's name.
    pub(super) fn name_fault_sets(
        &mut self,
        clients: &mut [ClientDecl],
        port_type_names: &BTreeMap<QName, String>,
    ) {
        if self.fault_sets.is_empty() {
            return;
        }
        // The operations of each set, in client and operation order, each once.
        let mut users: Vec<Vec<(QName, String)>> = vec![Vec::new(); self.fault_sets.len()];
        let mut order: Vec<usize> = Vec::new();
        for c in clients.iter() {
            for op in &c.operations {
                let Some(i) = op.faults.as_deref().and_then(fault_placeholder) else {
                    continue;
                };
                let user = (c.port_type.clone(), op.wsdl_name.clone());
                if !users[i].contains(&user) {
                    users[i].push(user);
                }
                if !order.contains(&i) {
                    order.push(i);
                }
            }
        }
        // A set every operation of a portType declares is named after that portType's client.
        let whole = |i: usize| -> Option<(&QName, &String)> {
            port_type_names.iter().find(|(pt, _)| {
                let mut ops = clients
                    .iter()
                    .filter(|c| &c.port_type == *pt)
                    .flat_map(|c| c.operations.iter())
                    .peekable();
                ops.peek().is_some()
                    && ops.all(|o| o.faults.as_deref().and_then(fault_placeholder) == Some(i))
            })
        };
        let mut names: BTreeMap<usize, String> = BTreeMap::new();
        for &i in &order {
            let variants: Vec<&str> = self.fault_sets[i].iter().map(|v| v.0.as_str()).collect();
            let base =
                clients::fault_set_name(&variants, &users[i], whole(i).map(|w| w.1.as_str()));
            let name = self.scope.unique(&base);
            let ops: Vec<String> = users[i].iter().map(|(_, op)| format!("`{op}`")).collect();
            const LISTED: usize = 16;
            let listed = if ops.len() > LISTED {
                format!(
                    "{} and {} more",
                    ops[..LISTED].join(", "),
                    ops.len() - LISTED
                )
            } else {
                match ops.as_slice() {
                    [init @ .., last] if !init.is_empty() => {
                        format!("{} and {last}", init.join(", "))
                    }
                    _ => ops.join(""),
                }
            };
            let doc = match whole(i) {
                Some((pt, _)) => format!(
                    "The faults every operation of portType `{}` declares: {listed}.",
                    pt.local
                ),
                None if ops.len() == 1 => format!("The faults the operation {listed} declares."),
                None => format!("The faults the operations {listed} declare."),
            };
            self.decls.insert(
                name.clone(),
                TypeDecl::Faults(FaultsDecl {
                    name: name.clone(),
                    doc: Some(Doc::markdown(doc)),
                    variants: self.fault_sets[i].clone(),
                }),
            );
            names.insert(i, name);
        }
        for c in clients.iter_mut() {
            for op in &mut c.operations {
                if let Some(i) = op.faults.as_deref().and_then(fault_placeholder) {
                    op.faults = names.get(&i).cloned();
                }
            }
        }
    }

    fn message(&self, q: &QName, loc: &Loc) -> R<&'d Message> {
        self.defs
            .messages
            .get(q)
            .ok_or_else(|| undefined(format!("message {q}"), loc))
    }

    /// The `part` of message `mq` that a `soap:header` names (WSDL 1.1 §3.7).
    fn header_part(&self, mq: &QName, part: &str, loc: &Loc) -> R<&'d Part> {
        let m = self.message(mq, loc)?;
        m.parts
            .iter()
            .find(|p| p.name == part)
            .ok_or_else(|| undefined(format!("part {part} of message {mq}"), loc))
    }

    /// The method of binding operation `bop` (of `binding`, binding portType `pt`), named
    /// `method`: the portType operation's messages read by its style (document or rpc) and use,
    /// then its headers, attachments and fault set.
    fn operation(
        &mut self,
        binding: &Binding,
        pt: &PortType,
        bop: &BindingOperation,
        method: String,
    ) -> R<OperationDecl> {
        let Some(op) = port_type_operation(binding, pt, bop) else {
            return Err(undefined(
                format!("operation {} in portType {}", bop.name, pt.name),
                &bop.loc,
            ));
        };
        let style = bop.style.or(binding.style).unwrap_or(Style::Document);
        let Some(input_q) = &op.input else {
            return Err(unsupported("an operation without input", &op.loc));
        };
        let input = self.message(input_q, &op.loc)?;
        let output = op
            .output
            .as_ref()
            .map(|q| self.message(q, &op.loc))
            .transpose()?;
        let (in_bind, out_bind, encoded) = self.body_use(binding, bop, style)?;
        check_attachments(input, &in_bind)?;
        if let Some(output) = output {
            check_attachments(output, &out_bind)?;
        }
        let header_parts: BTreeSet<(QName, String)> = in_bind
            .iter()
            .chain(out_bind.iter())
            .flat_map(|b| b.headers.iter().map(|(m, p, _)| (m.clone(), p.clone())))
            .collect();
        let in_parts = body_parts(input, &in_bind, &header_parts);
        let out_parts = output.map(|m| body_parts(m, &out_bind, &header_parts));
        // A document-style output message with no parts at all (WSDL 1.1 §2.3.1 allows it): the
        // response Body is empty, read as a one-way operation's acknowledgement (a fault is still
        // reported).
        let out_parts = match (style, output) {
            (Style::Document, Some(m))
                if m.parts.is_empty()
                    && out_bind.as_ref().is_none_or(|b| b.attachments.is_empty()) =>
            {
                None
            }
            _ => out_parts,
        };
        let mut decl = new_operation(method, op, bop, encoded);
        decl.rpc = style == Style::Rpc;
        match style {
            Style::Document => self.document_op(op, &in_parts, out_parts.as_deref(), &mut decl)?,
            Style::Rpc => self.rpc_op(
                op,
                &in_parts,
                out_parts.as_deref(),
                in_bind.as_ref(),
                out_bind.as_ref(),
                &mut decl,
            )?,
        }
        // Header and attachment parameters come after the body's, named apart from them.
        let mut pscope = Scope::new();
        for p in &decl.params {
            pscope.unique(p.name.trim_start_matches("r#"));
        }
        attachments(&mut decl, in_bind.as_ref(), out_bind.as_ref());
        self.request_headers(&mut decl, in_bind.as_ref(), &mut pscope)?;
        self.response_headers(&mut decl, op, out_bind.as_ref())?;
        for a in &mut decl.attachments {
            a.name = names::escape_keyword(&pscope.unique(&names::field_name(&a.part)));
        }
        decl.faults = self.fault_set(pt, op, decl.encoded)?;
        self.operation_docs(op, bop, input, output, &mut decl);
        Ok(decl)
    }

    /// The input and output bindings of `bop` as they are read, and whether the operation is
    /// rpc/encoded. SOAP 1.1 §5 encoding belongs to rpc style (§7); document/encoded is an erratum
    /// of published WSDLs (WS-I Basic Profile 1.0 R2706 forbids encoded), read as literal with a
    /// located warning, or refused with `strict_use`.
    fn body_use(
        &mut self,
        binding: &Binding,
        bop: &BindingOperation,
        style: Style,
    ) -> R<(Option<BindingMessage>, Option<BindingMessage>, bool)> {
        let mut in_bind = bop.input.clone();
        let mut out_bind = bop.output.clone();
        let encoded_at = [&in_bind, &out_bind]
            .into_iter()
            .flatten()
            .find(|b| b.use_ == BodyUse::Encoded)
            .map(|b| b.loc.clone());
        if let (Some(at), false) = (&encoded_at, style == Style::Rpc) {
            if self.opts.strict_use {
                return Err(unsupported(
                    "use=\"encoded\" with style=\"document\" (document/encoded; rpc/encoded is \
                     supported, and without strict use document/encoded is read as literal)",
                    at,
                ));
            }
            self.warnings.push(Warning {
                message: format!(
                    "operation {} of binding {}: use=\"encoded\" with style=\"document\" read as \
                     use=\"literal\" (SOAP encoding belongs to rpc style, SOAP 1.1 §5, §7; WS-I \
                     Basic Profile 1.0 R2706 forbids encoded)",
                    bop.name, binding.name.local
                ),
                loc: at.clone(),
            });
            for b in [&mut in_bind, &mut out_bind].into_iter().flatten() {
                b.use_ = BodyUse::Literal;
            }
        }
        let encoded = style == Style::Rpc && encoded_at.is_some();
        Ok((in_bind, out_bind, encoded))
    }

    /// Header parameters: each `soap:header` of the input (WSDL 1.1 §3.7), an element part sent
    /// as an optional header block, named apart from the other parameters (`pscope`).
    fn request_headers(
        &mut self,
        decl: &mut OperationDecl,
        in_bind: Option<&BindingMessage>,
        pscope: &mut Scope,
    ) -> R<()> {
        for (mq, part, loc) in in_bind.iter().flat_map(|b| b.headers.iter()) {
            let p = self.header_part(mq, part, loc)?;
            let PartKind::Element(eq) = &p.kind else {
                return Err(unsupported(
                    "a soap:header part typed with type= (headers are elements)",
                    &p.loc,
                ));
            };
            let (base, _) = self.element_base(eq, &p.loc)?;
            decl.headers.push(ParamDecl {
                name: names::escape_keyword(&pscope.unique(&names::field_name(&eq.local))),
                xml: eq.clone(),
                ty: TypeExpr {
                    base,
                    card: Occurrence::Optional,
                    boxed: false,
                },
            });
        }
        Ok(())
    }

    /// Response headers (WSDL 1.1 §3.7 `soap:header` in the output): read typed from
    /// `Response::header`, one constant per element, named after it. A part typed with `type=`
    /// gets no accessor, with a located warning.
    fn response_headers(
        &mut self,
        decl: &mut OperationDecl,
        op: &PortTypeOperation,
        out_bind: Option<&BindingMessage>,
    ) -> R<()> {
        let mut hscope = Scope::new();
        for (mq, part, loc) in out_bind.iter().flat_map(|b| b.headers.iter()) {
            let p = self.header_part(mq, part, loc)?;
            let PartKind::Element(eq) = &p.kind else {
                // Nothing is lost: the block still arrives, as XML, in `Response::headers`.
                self.warnings.push(Warning {
                    message: format!(
                        "operation {}: the response header part {part} of message {mq} is typed \
                         with type= (header parts are elements, WSDL 1.1 §3.7, WS-I Basic \
                         Profile 1.1 R2205): no typed accessor for it; read it as XML from the \
                         response's headers",
                        op.name
                    ),
                    loc: p.loc.clone(),
                });
                continue;
            };
            if decl.response_headers.iter().any(|h| &h.xml == eq) {
                continue;
            }
            let (base, _) = self.element_base(eq, &p.loc)?;
            decl.response_headers.push(ParamDecl {
                name: hscope.unique(&names::field_name(&eq.local)),
                xml: eq.clone(),
                ty: TypeExpr {
                    base,
                    card: Occurrence::One,
                    boxed: false,
                },
            });
        }
        Ok(())
    }

    /// The fault set of portType operation `op` (WSDL 1.1 §2.4.5): each declared fault's single
    /// element part (with `encoded`, a part typed by `type=` too, SOAP 1.1 §5) is a variant.
    /// Operations that declare the same faults share one set, named once the clients are: this
    /// is its placeholder name, or `None` without faults.
    fn fault_set(
        &mut self,
        pt: &PortType,
        op: &PortTypeOperation,
        encoded: bool,
    ) -> R<Option<String>> {
        if let Some(&i) = self.fault_types.get(&(pt.name.clone(), op.name.clone())) {
            return Ok(Some(format!("{FAULT_PLACEHOLDER}{i}")));
        }
        if op.faults.is_empty() {
            return Ok(None);
        }
        let mut variants = Vec::new();
        let mut vscope = Scope::new();
        for (fname, mq) in &op.faults {
            let m = self.message(mq, &op.loc)?;
            let [part] = m.parts.as_slice() else {
                return Err(unsupported(
                    format!(
                        "fault message {mq} with {} parts (WSDL 1.1 §3.6 allows one)",
                        m.parts.len()
                    ),
                    &m.loc,
                ));
            };
            let (base, detail, xsi_type) = match &part.kind {
                PartKind::Element(eq) => (self.element_base(eq, &part.loc)?.0, eq.clone(), None),
                // rpc/encoded (SOAP 1.1 §5): the detail entry is an accessor named after the
                // part, its type given by type= (Axis 1 names every fault's `fault`: the
                // entry's xsi:type tells them apart).
                PartKind::Type(t) if encoded => (
                    self.named_type(t, &part.loc)?,
                    QName::new("", part.name.clone()),
                    Some(t.clone()),
                ),
                PartKind::Type(_) => {
                    return Err(unsupported(
                        "a fault part typed with type= (fault details are elements)",
                        &part.loc,
                    ))
                }
            };
            variants.push((
                vscope.unique(&names::type_name(fname)),
                base,
                detail,
                xsi_type,
            ));
        }
        let i = match self.fault_sets.iter().position(|f| *f == variants) {
            Some(i) => i,
            None => {
                self.fault_sets.push(variants);
                self.fault_sets.len() - 1
            }
        };
        self.fault_types
            .insert((pt.name.clone(), op.name.clone()), i);
        Ok(Some(format!("{FAULT_PLACEHOLDER}{i}")))
    }

    /// The element of a document-style message: exactly one `element=` part.
    pub(super) fn doc_part(
        &self,
        parts: &[&Part],
        op: &PortTypeOperation,
        what: &str,
    ) -> R<(QName, Loc)> {
        match parts {
            [p] => match &p.kind {
                PartKind::Element(q) => Ok((q.clone(), p.loc.clone())),
                PartKind::Type(_) => Err(unsupported(
                    format!("a document-style {what} part typed with type= (WS-I BP R2204 requires element=)"),
                    &p.loc,
                )),
            },
            [] => Err(unsupported(format!("a document-style {what} message with no parts"), &op.loc)),
            _ => Err(unsupported(
                format!("a document-style {what} message with {} body parts", parts.len()),
                &op.loc,
            )),
        }
    }
}

/// The parts of `msg` bound to MIME attachments by `bind` (WSDL 1.1 §5.3): each must exist, and be
/// bound once (not to two `mime:part`s, not to `soap:body` too).
fn check_attachments(msg: &Message, bind: &Option<BindingMessage>) -> R<()> {
    let Some(bind) = bind else {
        return Ok(());
    };
    let mut seen = BTreeSet::new();
    for a in &bind.attachments {
        if !msg.parts.iter().any(|p| p.name == a.part) {
            return Err(undefined(
                format!(
                    "part {} of message {} (mime:content part=)",
                    a.part, msg.name
                ),
                &a.loc,
            ));
        }
        let in_body = bind.parts.as_ref().is_some_and(|l| l.contains(&a.part));
        if !seen.insert(a.part.as_str()) || in_body {
            return Err(unsupported(
                format!(
                    "message part {} bound twice (to two mime:parts, or to soap:body and a \
                     mime:part)",
                    a.part
                ),
                &a.loc,
            ));
        }
    }
    Ok(())
}

/// The parts of `msg` that go in the SOAP Body: those `soap:body parts=` lists, else every part
/// not sent as a header (`header_parts`: message and part) or an attachment.
fn body_parts<'m>(
    msg: &'m Message,
    bind: &Option<BindingMessage>,
    header_parts: &BTreeSet<(QName, String)>,
) -> Vec<&'m Part> {
    let attached = |name: &str| {
        bind.as_ref()
            .is_some_and(|b| b.attachments.iter().any(|a| a.part == name))
    };
    msg.parts
        .iter()
        .filter(|p| match bind.as_ref().and_then(|b| b.parts.as_ref()) {
            Some(list) => list.contains(&p.name),
            None => {
                !header_parts.contains(&(msg.name.clone(), p.name.clone())) && !attached(&p.name)
            }
        })
        .collect()
}

/// The method `method` of portType operation `op` bound by `bop`, before its messages are read:
/// its names, documentation and soapAction.
fn new_operation(
    method: String,
    op: &PortTypeOperation,
    bop: &BindingOperation,
    encoded: bool,
) -> OperationDecl {
    OperationDecl {
        method,
        wsdl_name: op.name.clone(),
        doc: prose(op.doc.as_ref()),
        action: bop.soap_action.clone().unwrap_or_default(),
        reply_action: None,
        request: QName::new("", ""),
        empty_request: false,
        response: None,
        soap_response: bop.soap_response.clone(),
        bare: false,
        request_struct: false,
        encoded,
        rpc: false,
        bare_response: false,
        result: None,
        result_min: 0,
        params: Vec::new(),
        headers: Vec::new(),
        response_headers: Vec::new(),
        ret: None,
        faults: None,
        attachments: Vec::new(),
        response_attachments: Vec::new(),
        stream: false,
        stream_items: None,
    }
}

/// The attachments of SOAP with Attachments (WSDL 1.1 §5): parameters after the body's, results
/// after the body's, in `mime:part` order (the parameters are named later).
fn attachments(
    decl: &mut OperationDecl,
    in_bind: Option<&BindingMessage>,
    out_bind: Option<&BindingMessage>,
) {
    for a in in_bind.iter().flat_map(|b| b.attachments.iter()) {
        decl.attachments.push(AttachmentDecl {
            name: String::new(),
            part: a.part.clone(),
            content_types: a.content_types.clone(),
        });
    }
    for a in out_bind.iter().flat_map(|b| b.attachments.iter()) {
        decl.response_attachments.push(AttachmentDecl {
            name: a.part.clone(),
            part: a.part.clone(),
            content_types: a.content_types.clone(),
        });
    }
}

/// What an operation's `faults` holds until the fault sets are named: this and the set's index
/// (not an identifier, so never a type's name).
const FAULT_PLACEHOLDER: &str = "#faults";

/// The fault set index of a placeholder `faults` name.
fn fault_placeholder(faults: &str) -> Option<usize> {
    faults.strip_prefix(FAULT_PLACEHOLDER)?.parse().ok()
}

/// The method name of each operation of `binding`, in order: the operation's name in snake_case;
/// for a name the portType overloads (WSDL 1.1 §2.4.5), its input's name, else a numbered
/// fallback. Names that stand for themselves are given out first, so that no fallback
/// (`get2` for a second `Get`) takes the name of another operation (`Get2`).
fn method_names(binding: &Binding, pt: &PortType) -> Vec<String> {
    let preferred: Vec<String> = binding
        .operations
        .iter()
        .map(|bop| {
            let overloaded = pt.operations.iter().filter(|o| o.name == bop.name).count() > 1;
            let op = port_type_operation(binding, pt, bop);
            let base = match (op.and_then(|o| o.input_name.as_ref()), overloaded) {
                (Some(n), true) => n.as_str(),
                _ => bop.name.as_str(),
            };
            names::field_name(base)
        })
        .collect();
    // How many operations want each name, compared as the scope compares them (case and `_`
    // ignored): counted once, so that naming stays linear in the number of operations.
    let keys: Vec<String> = preferred
        .iter()
        .map(|s| s.to_lowercase().replace('_', ""))
        .collect();
    let mut wanted: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for k in &keys {
        *wanted.entry(k.as_str()).or_default() += 1;
    }
    let taken_once = |i: usize| wanted.get(keys[i].as_str()) == Some(&1);
    // The generated clients' own methods, which `#[soap_client]` refuses as operation names.
    let mut scope = Scope::with_reserved(soapgen_contract::RESERVED_METHODS);
    let mut out = vec![String::new(); preferred.len()];
    for pass in [true, false] {
        for (i, p) in preferred.iter().enumerate() {
            if taken_once(i) == pass {
                out[i] = names::escape_keyword(&scope.unique(p));
            }
        }
    }
    out
}

/// The portType operation a binding operation binds (WSDL 1.1 §2.5): the one of that name; of
/// an overloaded name (§2.4.5), the one whose input has the binding input's `name`, else the one
/// at the same position among the operations of that name.
fn port_type_operation<'p>(
    binding: &Binding,
    pt: &'p PortType,
    bop: &BindingOperation,
) -> Option<&'p PortTypeOperation> {
    let same: Vec<&PortTypeOperation> = pt
        .operations
        .iter()
        .filter(|o| o.name == bop.name)
        .collect();
    if same.len() <= 1 {
        return same.first().copied();
    }
    if let Some(n) = &bop.input_name {
        if let Some(op) = same.iter().find(|o| o.input_name.as_ref() == Some(n)) {
            return Some(op);
        }
    }
    let position = binding
        .operations
        .iter()
        .filter(|o| o.name == bop.name)
        .position(|o| std::ptr::eq(o, bop))?;
    same.get(position).copied()
}

#[cfg(test)]
mod tests {
    use super::super::fixture::*;
    use super::*;

    #[test]
    fn overloaded_operations_get_distinct_method_names() {
        let m = lower_wsdl(&document_wsdl(
            r#"<xs:element name="A" type="xs:string"/><xs:element name="B" type="xs:int"/>"#,
            r#"<message name="MA"><part name="p" element="tns:A"/></message>
  <message name="MB"><part name="p" element="tns:B"/></message>
  <portType name="Svc">
    <operation name="Get"><input name="GetByName" message="tns:MA"/><output message="tns:MA"/></operation>
    <operation name="Get"><input name="GetById" message="tns:MB"/><output message="tns:MB"/></operation>
  </portType>"#,
            r#"<operation name="Get"><soap:operation soapAction="urn:a"/><input name="GetByName"><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
    <operation name="Get"><soap:operation soapAction="urn:b"/><input name="GetById"><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>"#,
        ));
        let ops: Vec<_> = m.clients[0]
            .operations
            .iter()
            .map(|o| (o.method.as_str(), o.action.as_str()))
            .collect();
        assert_eq!(ops, [("get_by_name", "urn:a"), ("get_by_id", "urn:b")]);
    }

    #[test]
    fn a_port_of_an_undefined_binding_is_a_warning_with_its_place() {
        let wsdl = document_wsdl(
            r#"<xs:element name="A" type="xs:string"/>"#,
            r#"<message name="M"><part name="p" element="tns:A"/></message>
  <portType name="Svc"><operation name="Get"><input message="tns:M"/><output message="tns:M"/></operation></portType>"#,
            r#"<operation name="Get"><soap:operation soapAction="urn:a"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>"#,
        )
        .replace(r#"binding="tns:Bnd">"#, r#"binding="tns:Bnd2">"#);
        let m = lower_wsdl(&wsdl);
        let w: Vec<String> = m.warnings.iter().map(|w| w.to_string()).collect();
        assert!(
            w.iter().any(|w| w.contains("t.wsdl:")
                && w.contains(
                    "port P of service S names the binding {urn:ir-test}Bnd2, which is not defined"
                )),
            "{w:?}"
        );
        assert!(m.clients[0].ports.is_empty());
    }

    #[test]
    fn a_response_header_part_typed_with_type_is_a_warning_not_an_error() {
        // zeep's soap_header.wsdl has one: the operation is generated, the typed accessor left
        // out, and the warning says where.
        let m = lower_wsdl(&document_wsdl(
            r#"<xs:element name="A" type="xs:string"/><xs:element name="Session" type="xs:string"/>"#,
            r#"<message name="M"><part name="p" element="tns:A"/></message>
  <message name="H"><part name="typed" type="xs:string"/><part name="elem" element="tns:Session"/></message>
  <portType name="Svc"><operation name="Do"><input message="tns:M"/><output message="tns:M"/></operation></portType>"#,
            r#"<operation name="Do"><soap:operation soapAction=""/><input><soap:body use="literal"/></input>
      <output><soap:body use="literal"/><soap:header message="tns:H" part="typed" use="literal"/>
        <soap:header message="tns:H" part="elem" use="literal"/></output></operation>"#,
        ));
        let op = &m.clients[0].operations[0];
        let headers: Vec<_> = op
            .response_headers
            .iter()
            .map(|h| h.xml.local.as_str())
            .collect();
        assert_eq!(headers, ["Session"]);
        assert!(
            m.warnings
                .iter()
                .any(|w| w.message.contains("part typed of message") && w.message.contains("type=")),
            "{:?}",
            m.warnings
        );
    }

    #[test]
    fn declared_faults_give_the_operation_a_fault_set() {
        let m = lower_wsdl(&document_wsdl(
            r#"<xs:element name="A" type="xs:string"/>
    <xs:element name="Oops"><xs:complexType><xs:sequence><xs:element name="code" type="xs:int"/></xs:sequence></xs:complexType></xs:element>"#,
            r#"<message name="M"><part name="p" element="tns:A"/></message>
  <message name="F"><part name="f" element="tns:Oops"/></message>
  <portType name="Svc"><operation name="Do"><input message="tns:M"/><output message="tns:M"/><fault name="oops" message="tns:F"/></operation></portType>"#,
            r#"<operation name="Do"><soap:operation soapAction=""/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output>
      <fault name="oops"><soap:fault name="oops" use="literal"/></fault></operation>"#,
        ));
        let op = &m.clients[0].operations[0];
        let set = op.faults.as_deref().expect("a fault set");
        let TypeDecl::Faults(f) = decl(&m, set) else {
            panic!("{set} is not a fault set")
        };
        assert_eq!(f.variants.len(), 1, "{f:?}");
    }
}
