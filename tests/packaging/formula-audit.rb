# The part of `brew audit --strict` that can be checked without Homebrew:
# loads a formula against a minimal stand-in for Homebrew's Formula DSL and
# applies Homebrew's rules for its fields, dependencies, install and test.
#
#   ruby formula-audit.rb FORMULA.rb [--release]
#
# --release also demands a real sha256 (after contrib/release-checksums).
# Prints one line per problem and exits 1 if there is any.

require "set"

class Formula
  class << self
    attr_reader :fields, :deps, :macos_deps, :blocks

    def inherited(sub)
      super
      sub.instance_variable_set(:@fields, {})
      sub.instance_variable_set(:@deps, [])
      sub.instance_variable_set(:@macos_deps, [])
      sub.instance_variable_set(:@blocks, Set.new)
    end

    %i[desc homepage url sha256 license].each do |field|
      define_method(field) { |value| @fields[field] = value }
    end

    def depends_on(spec)
      @deps << (spec.is_a?(Hash) ? spec.keys.first : spec)
    end

    def uses_from_macos(name, *)
      @macos_deps << name
    end

    def on_linux(&block)
      @blocks << :on_linux
      class_eval(&block)
    end

    def test(&block)
      @blocks << :test
      @test_block = block
    end
  end
end

path = ARGV.fetch(0)
release = ARGV.include?("--release")
source = File.read(path)
load path
formula = Object.const_get(File.basename(path, ".rb").capitalize)
f = formula.fields
problems = []

desc = f[:desc].to_s
name = File.basename(path, ".rb")
problems << "desc is missing" if desc.empty?
problems << "desc is longer than 80 characters" if desc.length > 80
problems << "desc starts with an article" if desc.match?(/\A(a|an|the)\s/i)
problems << "desc names the formula" if desc.downcase.start_with?(name)
problems << "desc ends with a full stop" if desc.end_with?(".")
problems << "desc does not start with a capital" unless desc.match?(/\A[A-Z]/)
%i[homepage url].each do |field|
  problems << "#{field} is not https" unless f[field].to_s.start_with?("https://")
end
problems << "url does not name a release tarball" unless f[:url].to_s.match?(%r{/#{name}-[0-9.]+\.tar\.gz\z})
problems << "sha256 is not 64 hex digits" unless f[:sha256].to_s.match?(/\A\h{64}\z/)
problems << "sha256 is a placeholder" if release && f[:sha256].to_s.match?(/\A0+\z/)
problems << "license is not an SPDX identifier" unless f[:license].to_s.match?(/\A[A-Za-z0-9.+-]+\z/)
problems << "libbsd is needed on Linux only: depends_on inside on_linux" unless formula.blocks.include?(:on_linux)
problems << "no test block" unless formula.blocks.include?(:test)
problems << "install does not pass std_cmake_args" if source.include?("cmake") && !source.include?("*std_cmake_args")
problems << "a version test alone does not test the formula" if source.match?(/test do\s+system "\#\{bin\}\/\w+", "--version"\s+end/)

problems.each { |p| puts "#{path}: #{p}" }
exit(problems.empty? ? 0 : 1)
