dist_man_MANS += doc/ptyvisor.1
# The control protocol, for authors of clients, the one-page architecture
# and what runs without asking; installed in $(docdir).
dist_doc_DATA = doc/protocol.md doc/architecture.md doc/policy.md
