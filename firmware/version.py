# Which firmware this is: `hello ... fw=<VERSION>`. The source tree says "0.1.0+src"; a
# build rewrites this file in the copy it makes (host_tools/version.py): the UF2 says
# "0.1.0+g<commit>", where <commit> is the last commit that changed the firmware (".dirty"
# after it: changed since).
VERSION = "0.1.0+src"
