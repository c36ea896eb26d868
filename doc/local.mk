dist_man_MANS += doc/ptyvisor.1
# The control protocol, for authors of clients; installed in $(docdir).
dist_doc_DATA = doc/protocol.md
