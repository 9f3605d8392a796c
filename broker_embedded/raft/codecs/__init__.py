"""Generated KRaft RPC codecs (broker_embedded.raft.gen_codecs): do not edit."""
