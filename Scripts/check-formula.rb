# Runs Formula/almanac.rb's `test do` block against an unpacked release (no Homebrew here, and no
# Mac): a stand-in for the few Formula methods the file calls, `bin` and `pkgshare` pointing into the
# release's folder, `version` the one the binary was built with.
#
#     ruby Scripts/check-formula.rb RELEASE-FOLDER VERSION
require "pathname"
require "open3"

release = Pathname(ARGV.fetch(0)).realpath
$release_version = ARGV.fetch(1)

class Formula
  class << self
    attr_reader :test_block

    def test(&block) = @test_block = block
    # What the class body declares: accepted and not checked here (Homebrew checks them).
    %i[desc homepage url version license head depends_on uses_from_macos].each do |name|
      define_method(name) { |*_args, **_options| nil }
    end
  end

  def initialize(release) = @release = release
  def bin = @release/"bin"
  def pkgshare = @release/"share/doc/almanac"
  def version = $release_version

  def shell_output(command, status = 0)
    output, result = Open3.capture2(command)
    raise "#{command}: exit #{result.exitstatus}, expected #{status}" unless result.exitstatus == status
    output
  end

  def assert_match(expected, actual) = (actual.include?(expected) || raise("#{expected.inspect} not in output"))
  def assert_equal(expected, actual) = (expected == actual || raise("#{expected.inspect} != #{actual.inspect}"))
end

# Homebrew builds in a sandbox of its own, where SwiftPM cannot start another: every `swift build`
# the formula runs, itself or through a script, passes --disable-sandbox.
root = File.expand_path("..", __dir__)
formula_text = File.read(File.join(root, "Formula/almanac.rb"))
builds = formula_text.scan(/system "swift", "build"[^\n]*/) +
         File.read(File.join(root, "Scripts/generate-manual.sh")).scan(/^\s*swift build[^\n]*/)
raise "Formula/almanac.rb runs no swift build" if builds.empty?
builds.each { |line| line.include?("--disable-sandbox") || raise("a swift build without --disable-sandbox: #{line.strip}") }
# The release the formula installs is a tag of this repository (where the clone has its tags).
tag = formula_text[/tag: "([^"]+)"/, 1] || raise("Formula/almanac.rb names no tag")
tags = `git -C #{root} tag --list`.split
unless tags.empty? || tags.include?(tag)
  raise "Formula/almanac.rb installs #{tag}, which is no tag here (#{tags.join(", ")})"
end

load File.expand_path("../Formula/almanac.rb", __dir__)
Almanac.new(release).instance_eval(&Almanac.test_block)
puts "Formula/almanac.rb: test do passed against #{release}"
