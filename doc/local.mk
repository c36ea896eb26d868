dist_man_MANS += doc/ptyvisor.1
