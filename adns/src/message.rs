//! DNS messages in and out. hickory-proto parses every request and writes every
//! response; this file only decides what goes into them.
//!
//! A request is decoded once into a hickory [`Message`], which is then turned in
//! place into the response skeleton (header flags, first question, OPT record), so
//! a query costs the allocations of the decoded request, the question's name and
//! the answer records, and nothing else.

use std::net::{IpAddr, SocketAddr};

use hickory_proto::op::{
    emit_message_parts, Edns, Header, Message, MessageType, Metadata, OpCode, ResponseCode,
    DEFAULT_MAX_PAYLOAD_LEN,
};
use hickory_proto::rr::rdata::{A, AAAA, SOA};
use hickory_proto::rr::{DNSClass, Name, RData, Record, RecordType};
use hickory_proto::serialize::binary::{BinDecodable, BinDecoder, BinEncoder};
use hickory_proto::ProtoError;

use crate::{QueryKind, Question, Reply, Transport, Zone};

/// The largest UDP payload advertised in our OPT record and ever sent over UDP
/// (1232 bytes, the DNS flag day 2020 value).
pub(crate) const MAX_UDP_PAYLOAD: u16 = DEFAULT_MAX_PAYLOAD_LEN;

/// The UDP payload limit of a client without EDNS (RFC 1035).
const CLASSIC_UDP_PAYLOAD: u16 = 512;

/// What to do with a received packet.
pub(crate) enum Incoming {
    /// A query for the resolver, and the response to complete with its reply.
    Query(Question, Response),
    /// A response that needs no resolver: FORMERR, NOTIMP, BADVERS, or REFUSED
    /// for a class other than IN.
    Immediate(Response),
    /// Not worth an answer: shorter than a header, or itself a response.
    Drop,
}

/// A response under construction.
pub(crate) struct Response {
    message: Message,
    kind: QueryKind,
    udp_limit: u16,
}

/// Decodes one request received from `client` over `transport`.
///
/// Only the first question is answered when a message carries several (they
/// are not used in practice, and RFC 9619 makes QDCOUNT > 1 an error).
pub(crate) fn decode(bytes: &[u8], client: SocketAddr, transport: Transport) -> Incoming {
    let Ok(header) = Header::read(&mut BinDecoder::new(bytes)) else {
        tracing::debug!(%client, len = bytes.len(), "dropped a packet shorter than a header");
        return Incoming::Drop;
    };
    if header.message_type != MessageType::Query {
        return Incoming::Drop;
    }
    let mut message = match Message::from_vec(bytes) {
        Ok(message) => message,
        Err(error) => {
            tracing::debug!(%client, %error, "malformed query");
            let message = Message::new(0, MessageType::Response, header.op_code);
            let mut response = Response::new(message, None);
            response.message.metadata = Metadata::response_from_request(&header.metadata);
            response.message.metadata.response_code = ResponseCode::FormErr;
            return Incoming::Immediate(response);
        }
    };
    let request_edns = message.edns.take();
    message.metadata = Metadata::response_from_request(&message.metadata);
    message.queries.truncate(1);
    message.answers.clear();
    message.authorities.clear();
    message.additionals.clear();
    message.signature = None;
    let mut response = Response::new(message, request_edns.as_ref());

    if response.message.op_code != OpCode::Query {
        return response.immediate(ResponseCode::NotImp);
    }
    if request_edns.is_some_and(|edns| edns.version() > 0) {
        return response.immediate(ResponseCode::BADVERS);
    }
    let Some(query) = response.message.queries.first() else {
        return response.immediate(ResponseCode::FormErr);
    };
    if !matches!(query.query_class(), DNSClass::IN | DNSClass::ANY) {
        return response.immediate(ResponseCode::Refused);
    }
    let kind = query_kind(query.query_type());
    let name = question_name(query.name());
    response.kind = kind;
    let question = Question {
        name,
        kind,
        client,
        transport,
    };
    Incoming::Query(question, response)
}

impl Response {
    fn new(message: Message, request_edns: Option<&Edns>) -> Self {
        let mut message = message;
        // RFC 6891: answer an OPT record with one of ours, never without one.
        message.edns = request_edns.map(|_| {
            let mut edns = Edns::new();
            edns.set_max_payload(MAX_UDP_PAYLOAD);
            edns
        });
        let udp_limit = request_edns.map_or(CLASSIC_UDP_PAYLOAD, |edns| {
            edns.max_payload()
                .clamp(CLASSIC_UDP_PAYLOAD, MAX_UDP_PAYLOAD)
        });
        Self {
            message,
            kind: QueryKind::Other(0),
            udp_limit,
        }
    }

    fn immediate(mut self, code: ResponseCode) -> Incoming {
        self.message.metadata.response_code = code;
        Incoming::Immediate(self)
    }

    /// Fills in the resolver's reply. NOERROR and NXDOMAIN answers are authoritative (AA),
    /// and a negative one (NODATA, NXDOMAIN) carries its zone's SOA in the authority
    /// section; REFUSED and SERVFAIL are not authoritative, since they carry no data of ours.
    pub(crate) fn complete(mut self, reply: Reply) -> Self {
        match reply {
            Reply::Answer { addrs, ttl_s, zone } => {
                self.message.metadata.authoritative = true;
                if let Some(query) = self.message.queries.first() {
                    let name = query.name();
                    let kind = self.kind;
                    let records = addrs
                        .into_iter()
                        .filter(|addr| kind.wants(*addr))
                        .map(|addr| address_record(name, ttl_s, addr));
                    self.message.answers.extend(records);
                }
                if self.message.answers.is_empty() {
                    self.negative(&zone);
                }
            }
            Reply::NoData { zone } => {
                self.message.metadata.authoritative = true;
                self.negative(&zone);
            }
            Reply::NxDomain { zone } => {
                self.message.metadata.authoritative = true;
                self.message.metadata.response_code = ResponseCode::NXDomain;
                self.negative(&zone);
            }
            Reply::NotOurs => self.message.metadata.response_code = ResponseCode::Refused,
            Reply::Unavailable => self.message.metadata.response_code = ResponseCode::ServFail,
        }
        self
    }

    /// Puts `zone`'s SOA into the authority section (a name that does not parse is left
    /// out: the answer stays negative, only less cacheable).
    fn negative(&mut self, zone: &Zone) {
        match soa_record(zone) {
            Ok(record) => self.message.authorities.push(record),
            Err(error) => tracing::debug!(zone = %zone.apex, %error, "no SOA for a zone"),
        }
    }

    /// Writes the response into `buf` (cleared first). Over UDP a response larger
    /// than the client's limit (512 bytes, or its EDNS size up to 1232) is sent
    /// without answers and with TC set, so that the client retries over TCP.
    pub(crate) fn encode(
        &mut self,
        transport: Transport,
        buf: &mut Vec<u8>,
    ) -> Result<(), ProtoError> {
        let limit = match transport {
            Transport::Udp => self.udp_limit,
            Transport::Tcp => u16::MAX,
        };
        if self.emit(limit, buf)?.truncation {
            self.message.answers.clear();
            self.message.metadata.truncation = true;
            self.emit(limit, buf)?;
        }
        Ok(())
    }

    fn emit(&self, limit: u16, buf: &mut Vec<u8>) -> Result<Header, ProtoError> {
        buf.clear();
        let mut encoder = BinEncoder::new(buf);
        encoder.set_max_size(limit);
        let message = &self.message;
        emit_message_parts(
            &message.metadata,
            &mut message.queries.iter(),
            &mut message.answers.iter(),
            &mut message.authorities.iter(),
            &mut message.additionals.iter(),
            message.edns.as_ref(),
            message.signature.as_deref(),
            &mut encoder,
        )
    }
}

fn query_kind(record_type: RecordType) -> QueryKind {
    match record_type {
        RecordType::A => QueryKind::A,
        RecordType::AAAA => QueryKind::Aaaa,
        RecordType::ANY => QueryKind::Any,
        other => QueryKind::Other(u16::from(other)),
    }
}

/// `APPS.Example.com.` → `apps.example.com`.
fn question_name(name: &Name) -> String {
    let mut text = name.to_ascii();
    if name.is_fqdn() && text.ends_with('.') {
        text.pop();
    }
    text.make_ascii_lowercase();
    text
}

/// Refresh, retry and expire of the SOA (seconds; the usual values, unused without
/// secondaries) and its serial (the zone is never transferred).
const SOA_SERIAL: u32 = 1;
const SOA_REFRESH_S: i32 = 3600;
const SOA_RETRY_S: i32 = 600;
const SOA_EXPIRE_S: i32 = 86_400;

/// `zone`'s SOA record (see [`Zone`]).
fn soa_record(zone: &Zone) -> Result<Record, ProtoError> {
    let apex = Name::from_ascii(&zone.apex)?.append_domain(&Name::root())?;
    let soa = SOA::new(
        Name::from_ascii("ns1")?.append_domain(&apex)?,
        Name::from_ascii("hostmaster")?.append_domain(&apex)?,
        SOA_SERIAL,
        SOA_REFRESH_S,
        SOA_RETRY_S,
        SOA_EXPIRE_S,
        zone.negative_ttl_s,
    );
    Ok(Record::from_rdata(
        apex,
        zone.negative_ttl_s,
        RData::SOA(soa),
    ))
}

fn address_record(name: &Name, ttl_s: u32, addr: IpAddr) -> Record {
    let data = match addr {
        IpAddr::V4(v4) => RData::A(A(v4)),
        IpAddr::V6(v6) => RData::AAAA(AAAA(v6)),
    };
    Record::from_rdata(name.clone(), ttl_s, data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn question_names_are_lower_case_without_the_root_dot() {
        let cases = [
            ("APPS.Example.COM.", "apps.example.com"),
            ("apps.example.com", "apps.example.com"),
            (".", ""),
            ("xn--bcher-kva.Example.", "xn--bcher-kva.example"),
        ];
        for (input, expected) in cases {
            let name = Name::from_ascii(input).expect("valid name");
            assert_eq!(question_name(&name), expected, "{input}");
        }
    }

    #[test]
    fn record_types_map_to_query_kinds() {
        let cases = [
            (RecordType::A, QueryKind::A),
            (RecordType::AAAA, QueryKind::Aaaa),
            (RecordType::ANY, QueryKind::Any),
            (RecordType::MX, QueryKind::Other(15)),
            (RecordType::Unknown(65_280), QueryKind::Other(65_280)),
        ];
        for (record_type, expected) in cases {
            assert_eq!(query_kind(record_type), expected, "{record_type}");
        }
    }
}
