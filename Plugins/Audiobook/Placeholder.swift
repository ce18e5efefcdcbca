import PluginKit
