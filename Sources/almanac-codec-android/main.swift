import AlmanacAndroid
import AlmanacCore
import Foundation

// Android string resources as an Almanac codec plugin: `almanac` finds this executable on PATH
// (or in ALMANAC_PLUGIN_PATH) and talks to it through the plugin protocol.
exit(CodecPlugin.main(AndroidStringsCodec()))
