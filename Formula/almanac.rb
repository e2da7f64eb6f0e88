# Homebrew formula for Almanac. This repository is its own tap: `brew tap almanac/almanac URL` clones
# it, and the formula builds the tagged release from that clone (no other download), with Homebrew's
# ICU and libxml2. A new release changes `tag:` and `version` below (Scripts/release.sh checks
# that they match the tag it builds).
class Almanac < Formula
  desc "Convert and localize calendars, CSV, workbooks, app backups and string catalogs"
  homepage "file://#{File.expand_path("../README.md", __dir__)}"
  url "file://#{File.expand_path("..", __dir__)}", using: :git, tag: "v0.1.0"
  version "0.1.0"
  license "Apache-2.0"
  head "file://#{File.expand_path("..", __dir__)}", using: :git, branch: "main"

  depends_on xcode: ["16.3", :build] # Swift 6.1
  depends_on "pkgconf" => :build
  depends_on macos: :sequoia # the package's platforms
  depends_on "icu4c@77"
  depends_on "libxml2"
  uses_from_macos "swift" => :build
  uses_from_macos "zlib"

  def install
    ENV.prepend_path "PKG_CONFIG_PATH", Formula["icu4c@77"].opt_lib/"pkgconfig"
    ENV.prepend_path "PKG_CONFIG_PATH", Formula["libxml2"].opt_lib/"pkgconfig"
    system "swift", "build", "--disable-sandbox", "--configuration", "release", "--product", "almanac",
           "-Xcc", "-DALMANAC_VERSION=\"#{version}\""
    bin.install ".build/release/almanac"
    generate_completions_from_executable(bin/"almanac", "--generate-completion-script")

    # The man page, from the command's own help (swift-argument-parser's generate-manual), built in
    # the same build folder: the packages are there already, and the script builds with
    # --disable-sandbox as well.
    system "Scripts/generate-manual.sh", bin/"almanac", buildpath/"man", buildpath/".build"
    man1.install "man/almanac.1"
    pkgshare.install "Examples/family-calendar.ics"
  end

  test do
    # The README's first command, on the example installed beside the binary.
    output = shell_output("#{bin}/almanac expand #{pkgshare}/family-calendar.ics " \
                          "--from 2025-09-01 --until 2026-03-01 --lang zh-Hant --time-zone Asia/Taipei")
    assert_match "媽媽生日（八月十五）", output
    assert_match "上午9:00  打電話給阿嬤", output
    assert_equal version.to_s, shell_output("#{bin}/almanac --version").strip
  end
end
