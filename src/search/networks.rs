//! The networks the evaluation has ([`super::net`]), each trained by `train_net --board WxH`
//! and kept in its own `net_weights_WxH.rs`.

use super::net::NetWeights;

/// The networks the evaluation has, one per board size (a board without one is evaluated by
/// the linear evaluation alone). A network trained by `train_net --board WxH` is written to
/// `net_weights_WxH.rs`, and joins the evaluation when it is declared in `mod.rs` and listed
/// here.
pub static NETWORKS: [&NetWeights; 3] = [
    &super::net_weights_6x6::NET,
    &super::net_weights_8x8::NET,
    &super::net_weights_10x10::NET,
];

/// The network of a `width` x `height` board, if it has one.
pub fn network_for(width: u8, height: u8) -> Option<&'static NetWeights> {
    NETWORKS
        .iter()
        .copied()
        .find(|net| net.size == (width, height))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::net::NET_SQUARES;

    #[test]
    fn each_network_has_two_vectors_per_square_of_its_board() {
        for net in NETWORKS {
            let (width, height) = net.size;
            let squares = usize::from(width) * usize::from(height);
            assert!(squares <= NET_SQUARES, "{width}x{height}");
            assert_eq!(net.stones.len(), 2 * squares, "{width}x{height}");
        }
    }

    #[test]
    fn a_board_without_a_network_has_none() {
        assert!(network_for(8, 8).is_some());
        assert!(network_for(7, 7).is_none());
    }
}
