//! What a handler reads from a request besides its path: the JSON body, the
//! signed-in user (by API token, or by session cookie with its CSRF token),
//! and the client's address (the peer's, or, from a configured proxy, the
//! one the proxy forwards).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::Json;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Request};
use axum::http::header::{AUTHORIZATION, COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method};
use ipnet::IpNet;

use super::{App, CSRF_HEADER, SESSION_COOKIE};
use crate::auth::{AuthUser, Credential};
use crate::error::Error;
use crate::limits::ClientKey;

/// The longest reason quoted from a malformed body.
const MAX_REJECTION: usize = 200;

/// A JSON body whose errors are answered as one-line API errors.
pub struct ApiJson<T>(pub T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = Error;

    async fn from_request(req: Request, state: &S) -> Result<Self, Error> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(ApiJson(value)),
            Err(rejection) => {
                let mut text = rejection.body_text().replace('\n', " ");
                if let Some((end, _)) = text.char_indices().nth(MAX_REJECTION) {
                    text.truncate(end);
                    text.push('…');
                }
                Err(Error::Invalid(text))
            }
        }
    }
}

/// The value of cookie `name`.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

/// Who the request's credentials name, without the CSRF check: an unknown
/// token is refused, an unknown or expired session cookie is no one.
async fn identify(parts: &Parts, app: &App) -> Result<Option<AuthUser>, Error> {
    let service = &app.service;
    if let Some(token) = bearer(&parts.headers) {
        return match service.token_user(token).await? {
            Some(user) => Ok(Some(user)),
            None => Err(Error::Unauthorized(
                "the API token is unknown or revoked".into(),
            )),
        };
    }
    match cookie(&parts.headers, SESSION_COOKIE) {
        Some(secret) => service.session_user(&secret).await,
        None => Ok(None),
    }
}

/// The signed-in user (by API token or session cookie); refuses requests
/// without valid credentials, and cookie requests that change something
/// without the session's CSRF token.
pub struct Caller(pub AuthUser);

impl FromRequestParts<Arc<App>> for Caller {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, Error> {
        let Some(user) = identify(parts, app).await? else {
            return Err(Error::Unauthorized(
                if cookie(&parts.headers, SESSION_COOKIE).is_some() {
                    "the session has expired: sign in again"
                } else {
                    "sign in first, or send an API token as `Authorization: Bearer TOKEN`"
                }
                .into(),
            ));
        };
        let safe = matches!(parts.method, Method::GET | Method::HEAD | Method::OPTIONS);
        let sent = parts.headers.get(CSRF_HEADER).and_then(|v| v.to_str().ok());
        if !safe && user.credential != Credential::Token && sent != user.csrf() {
            return Err(Error::forbidden(format!(
                "missing or wrong {CSRF_HEADER} header (the csrf value from sign-in or /api/me)"
            )));
        }
        Ok(Caller(user))
    }
}

/// Who the request's credentials name, if anyone, without the CSRF check:
/// for requests anyone may make, where a signed-in user is counted as
/// themselves, and for refusing to replace a live session.
pub struct MaybeCaller(pub Option<AuthUser>);

impl FromRequestParts<Arc<App>> for MaybeCaller {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, Error> {
        Ok(MaybeCaller(identify(parts, app).await?))
    }
}

/// The client's address: the peer's, unless the peer is a trusted proxy,
/// in which case the last address the proxies forward (in `Forwarded` or
/// `X-Forwarded-For`) that is not itself a trusted proxy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

impl FromRequestParts<Arc<App>> for ClientIp {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, Error> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| addr.ip())
            .ok_or_else(|| Error::Internal("no peer address".into()))?;
        Ok(ClientIp(client_address(
            peer,
            &parts.headers,
            &app.config.trusted_proxies,
        )))
    }
}

impl ClientIp {
    /// The key limits count this client under: its account when signed in,
    /// else its address.
    pub fn key(self, user: Option<&AuthUser>) -> ClientKey {
        match user {
            Some(user) => ClientKey::Account(user.player.id),
            None => ClientKey::Address(self.0),
        }
    }
}

/// The client behind `peer`: `peer` itself unless it is one of `trusted`,
/// else the nearest forwarded address that is not a trusted proxy.
pub fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|net| net.contains(ip));
    if !is_trusted(&peer) {
        return peer;
    }
    let mut chain = forwarded_for(headers);
    if chain.is_empty() {
        chain = x_forwarded_for(headers);
    }
    // The proxies append, so the nearest client is the last untrusted one.
    chain
        .iter()
        .rev()
        .find(|ip| !is_trusted(ip))
        .or(chain.first())
        .copied()
        .unwrap_or(peer)
}

/// The `for=` addresses of the `Forwarded` headers (RFC 7239), in order;
/// empty when there are none or one cannot be read.
fn forwarded_for(headers: &HeaderMap) -> Vec<IpAddr> {
    let mut out = Vec::new();
    for value in headers.get_all("forwarded") {
        let Ok(text) = value.to_str() else {
            return Vec::new();
        };
        for element in text.split(',') {
            for pair in element.split(';') {
                let Some((key, value)) = pair.trim().split_once('=') else {
                    continue;
                };
                if !key.trim().eq_ignore_ascii_case("for") {
                    continue;
                }
                let value = value.trim().trim_matches('"');
                // `[v6]:port`, `[v6]`, `v4:port` or `v4`.
                let host = match value.strip_prefix('[') {
                    Some(rest) => rest.split(']').next().unwrap_or(""),
                    None => value.split(':').next().unwrap_or(""),
                };
                match host.parse() {
                    Ok(ip) => out.push(ip),
                    // `unknown` or an obfuscated name: no address.
                    Err(_) => return Vec::new(),
                }
            }
        }
    }
    out
}

/// The addresses of the `X-Forwarded-For` headers, in order; empty when
/// one cannot be read.
fn x_forwarded_for(headers: &HeaderMap) -> Vec<IpAddr> {
    let mut out = Vec::new();
    for value in headers.get_all("x-forwarded-for") {
        let Ok(text) = value.to_str() else {
            return Vec::new();
        };
        for item in text.split(',') {
            match item.trim().parse() {
                Ok(ip) => out.push(ip),
                Err(_) => return Vec::new(),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, value.parse().unwrap());
        }
        map
    }

    #[test]
    fn forwarded_addresses_count_only_from_trusted_proxies() {
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        let trusted: Vec<IpNet> = vec!["10.0.0.0/8".parse().unwrap()];
        let forwarded = headers(&[("x-forwarded-for", "203.0.113.7, 10.0.0.2")]);
        assert_eq!(
            client_address(proxy, &forwarded, &trusted),
            "203.0.113.7".parse::<IpAddr>().unwrap()
        );
        // From an untrusted peer the header is ignored.
        let stranger: IpAddr = "198.51.100.1".parse().unwrap();
        assert_eq!(client_address(stranger, &forwarded, &trusted), stranger);
        // A client cannot hide behind an address it writes itself: the
        // proxy appends the real one, which is the last untrusted one.
        let spoofed = headers(&[("x-forwarded-for", "1.2.3.4, 203.0.113.9")]);
        assert_eq!(
            client_address(proxy, &spoofed, &trusted),
            "203.0.113.9".parse::<IpAddr>().unwrap()
        );
        // RFC 7239 wins over X-Forwarded-For, with ports and IPv6.
        let rfc = headers(&[
            (
                "forwarded",
                "for=\"[2001:db8::1]:4711\";proto=https, for=10.0.0.3",
            ),
            ("x-forwarded-for", "192.0.2.1"),
        ]);
        assert_eq!(
            client_address(proxy, &rfc, &trusted),
            "2001:db8::1".parse::<IpAddr>().unwrap()
        );
        // Unreadable headers leave the peer.
        let junk = headers(&[("x-forwarded-for", "not an address")]);
        assert_eq!(client_address(proxy, &junk, &trusted), proxy);
        assert_eq!(client_address(proxy, &HeaderMap::new(), &trusted), proxy);
    }
}
