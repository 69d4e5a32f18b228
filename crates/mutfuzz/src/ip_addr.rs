//! [`ip_addr`]: an IP address of either family from one generated number, for the
//! targets `cargo mutfuzz init --auto` writes.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The IPv4 address of `bits` where it fits 32 bits, else the IPv6 one: small numbers,
/// which a generator draws most, make IPv4 addresses, so both families are tried.
///
/// ```
/// use std::net::IpAddr;
///
/// assert_eq!(mutfuzz::ip_addr(0x0a00_0001), "10.0.0.1".parse::<IpAddr>().unwrap());
/// assert_eq!(mutfuzz::ip_addr(1 << 32), "::1:0:0".parse::<IpAddr>().unwrap());
/// ```
pub fn ip_addr(bits: u128) -> IpAddr {
    match u32::try_from(bits) {
        Ok(v4) => IpAddr::V4(Ipv4Addr::from(v4)),
        Err(_) => IpAddr::V6(Ipv6Addr::from(bits)),
    }
}
