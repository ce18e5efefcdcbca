# How the examples find shelf's headers and libshelf-plugin: from an installed shelf
# (shelf-plugin.pc) when there is one, else from this source tree, whose helper library is built
# first. Either way the static library goes inside the plugin, which then exports one symbol.
ifeq ($(shell pkg-config --exists shelf-plugin 2>/dev/null && echo yes),yes)
SHELF_CFLAGS := $(shell pkg-config --cflags shelf-plugin)
SHELF_LIBS   := $(shell pkg-config --variable=staticlib shelf-plugin)
else
SHELF_SDK    := $(dir $(lastword $(MAKEFILE_LIST)))../Sources/PluginAPI
SHELF_CFLAGS := -I$(SHELF_SDK)/include -I$(SHELF_SDK)/lib/include
SHELF_LIBS   := $(dir $(lastword $(MAKEFILE_LIST)))../build/plugin-sdk/libshelf-plugin.a
$(SHELF_LIBS): shelf-plugin-library
shelf-plugin-library:
	$(MAKE) -C $(SHELF_SDK) lib
.PHONY: shelf-plugin-library
endif
