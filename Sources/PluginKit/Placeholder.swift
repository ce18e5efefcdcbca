import PluginAPI
