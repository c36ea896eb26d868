dist_man_MANS += doc/ptyvisor.1
# The control protocol, for authors of clients, the one-page architecture,
# what runs without asking, and putting agents under ptyvisor; installed
# in $(docdir).
dist_doc_DATA = doc/protocol.md doc/architecture.md doc/policy.md \
	doc/agents.md doc/web.md
