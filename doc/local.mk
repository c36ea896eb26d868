dist_man_MANS += doc/ptyvisor.1
# The control protocol, for authors of clients, and the one-page
# architecture; installed in $(docdir).
dist_doc_DATA = doc/protocol.md doc/architecture.md doc/agents.md
