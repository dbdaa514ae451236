class Tach < Formula
  desc "Pipe meter and drop-in replacement for NetBSD's progress(1)"
  homepage "https://tach.invalid.example/"
  url "https://tach.invalid.example/releases/tach-0.1.0.tar.gz"
  # contrib/release-checksums writes the release tarball's sha256 here
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  license "BSD-2-Clause"

  depends_on "cmake" => :build
  depends_on "pkgconf" => :build

  depends_on "openssl@3"
  uses_from_macos "ncurses"

  on_linux do
    depends_on "libbsd"
  end

  def install
    system "cmake", "-S", ".", "-B", "build", "-DBUILD_TESTING=OFF",
           "-DTACH_PROGRESS_LINKS=OFF", *std_cmake_args
    system "cmake", "--build", "build"
    system "cmake", "--install", "build"
  end

  test do
    assert_equal "beer", pipe_output("#{bin}/tach -q", "beer")
  end
end
