//===- unittests/Reader/FormatReaderTest.cpp ------------------------------===//
//
// The diagnostics of readDescription, one test per class of error, for the
// paths test/Reader/bad-input.test does not reach through the tool: each
// message must name the type (when there is one) and the path of the
// field, so that a user can find the mistake in a large file. Where a
// limit is checked, the value at the limit is accepted too, so the tests
// fail if the limit moves.
//
// Not here: a list of more than 2^24 entries (33 MB of text, seconds to
// parse; test/Reader/limits.test has it) and the memory bound on hostile
// nesting (test/Reader/deep-nesting.test).
//
//===----------------------------------------------------------------------===//
#include "ddtc/Reader/FormatReader.h"
#include "ddtc/IR/TypeContext.h"
#include "ddtc/Target/MPICHRules.h"

#include <gtest/gtest.h>

#include <string>

using namespace ddtc;

namespace {

/// The error message of reading Text, or "(no error)".
std::string errorOf(std::string_view Text) {
  TypeContext Ctx(getMPICHRules());
  Module M(Ctx);
  Error E = readDescription(Text, M);
  return E ? E.message() : "(no error)";
}

/// A file of one named type whose fields are Fields (JSON members).
std::string oneType(const std::string &Fields) {
  return R"({"ddtc": 1, "types": [{"name": "t", )" + Fields + "}]}";
}

/// N dup types nested inline inside the named type "deep".
std::string nestedDups(unsigned N) {
  std::string Text = R"({"ddtc": 1, "types": [{"name": "deep", )";
  for (unsigned I = 0; I < N; ++I)
    Text += R"("kind": "dup", "oldtype": {)";
  Text += R"("kind": "dup", "oldtype": "MPI_INT")";
  Text += std::string(N, '}');
  return Text + "}]}";
}

TEST(FormatReaderTest, MalformedJson) {
  // nlohmann's message, with its position, after ours.
  EXPECT_EQ(
      errorOf("").rfind("malformed JSON: parse error at line 1, column 1:", 0),
      0u)
      << errorOf("");
  // A second document after the first is not a description either.
  EXPECT_EQ(
      errorOf(R"({"ddtc": 1, "types": []} {})").rfind("malformed JSON: ", 0),
      0u);
  EXPECT_EQ(errorOf(R"({"ddtc": 1, "types": []})"), "(no error)");
}

TEST(FormatReaderTest, TypesNestedTooDeep) {
  // N inline dups below the named one and MPI_INT: a type N + 1 levels
  // deep, allowed up to 1024. Refused at the object that makes it deeper,
  // whose path is N times "oldtype".
  EXPECT_EQ(errorOf(nestedDups(MaxTypeDepth - 1)), "(no error)");
  std::string E = errorOf(nestedDups(MaxTypeDepth));
  const std::string Head = "type 'deep': field 'oldtype",
                    Tail = "': types nested more than 1024 levels deep";
  ASSERT_EQ(E.rfind(Head, 0), 0u) << E.substr(0, 100);
  ASSERT_GE(E.size(), Head.size() + Tail.size());
  EXPECT_EQ(E.substr(E.size() - Tail.size()), Tail) << E.substr(0, 100);
  std::string Path =
      E.substr(Head.size(), E.size() - Head.size() - Tail.size());
  std::string Rest;
  for (unsigned I = 1; I < MaxTypeDepth; ++I)
    Rest += ".oldtype";
  EXPECT_TRUE(Path == Rest) << "path of " << 1 + Path.size() / 8
                            << " fields, expected " << MaxTypeDepth;
}

TEST(FormatReaderTest, NamedTypesChainedTooDeep) {
  // t0 = dup(MPI_INT) is 1 level deep, t(i) = dup(t(i - 1)) i + 1 levels:
  // t1023 is the deepest allowed, and the JSON is never deep.
  std::string Text =
      R"({"ddtc": 1, "types": [{"name": "t0", "kind": "dup", "oldtype": "MPI_INT"})";
  auto Add = [&Text](unsigned I) {
    Text += R"(, {"name": "t)" + std::to_string(I) +
            R"(", "kind": "dup", "oldtype": "t)" + std::to_string(I - 1) +
            R"("})";
  };
  for (unsigned I = 1; I < MaxTypeDepth; ++I)
    Add(I);
  EXPECT_EQ(errorOf(Text + "]}"), "(no error)");
  Add(MaxTypeDepth);
  EXPECT_EQ(errorOf(Text + "]}"),
            "type 't1024': field 'oldtype': types nested more than 1024 "
            "levels deep");
}

TEST(FormatReaderTest, TopLevel) {
  EXPECT_EQ(errorOf(R"({"types": []})"),
            "field 'ddtc': missing (expected \"ddtc\": 1)");
  // The version must be the integer 1, not a look-alike.
  EXPECT_EQ(errorOf(R"({"ddtc": "1", "types": []})"),
            "field 'ddtc': unsupported format version \"1\" (this ddtc reads "
            "version 1)");
  EXPECT_EQ(errorOf(R"({"ddtc": 1.0, "types": []})"),
            "field 'ddtc': unsupported format version 1.0 (this ddtc reads "
            "version 1)");
  EXPECT_EQ(errorOf(R"({"ddtc": 1})"), "field 'types': missing");
  EXPECT_EQ(errorOf(R"({"ddtc": 1, "types": {}})"),
            "field 'types': expected an array, got an object");
  // Extensions are kept, not refused.
  EXPECT_EQ(errorOf(R"({"ddtc": 1, "x-note": [1], "types": []})"),
            "(no error)");
}

TEST(FormatReaderTest, EntryWithoutUsableName) {
  // Before the name is known, the message names the entry by position.
  EXPECT_EQ(
      errorOf(
          R"({"ddtc": 1, "types": [{"name": "a", "kind": "dup", "oldtype": "MPI_INT"}, 3]})"),
      "field 'types[1]': expected a type object, got an integer");
  EXPECT_EQ(
      errorOf(
          R"({"ddtc": 1, "types": [{"kind": "dup", "oldtype": "MPI_INT"}]})"),
      "field 'types[0].name': missing");
  EXPECT_EQ(
      errorOf(
          R"({"ddtc": 1, "types": [{"name": 7, "kind": "dup", "oldtype": "MPI_INT"}]})"),
      "field 'types[0].name': expected a string, got an integer");
}

TEST(FormatReaderTest, BadNames) {
  EXPECT_EQ(
      errorOf(
          R"({"ddtc": 1, "types": [{"name": "", "kind": "dup", "oldtype": "MPI_INT"}]})"),
      "type '': field 'name': '' is not a C identifier");
  EXPECT_EQ(
      errorOf(
          R"({"ddtc": 1, "types": [{"name": "2d", "kind": "dup", "oldtype": "MPI_INT"}]})"),
      "type '2d': field 'name': '2d' is not a C identifier");
  EXPECT_EQ(
      errorOf(
          R"({"ddtc": 1, "types": [{"name": "_a9", "kind": "dup", "oldtype": "MPI_INT"}]})"),
      "(no error)");
  // 255 characters are accepted, 256 are not.
  auto Named = [](size_t Length) {
    return R"({"ddtc": 1, "types": [{"name": ")" + std::string(Length, 'n') +
           R"(", "kind": "dup", "oldtype": "MPI_INT"}]})";
  };
  EXPECT_EQ(errorOf(Named(MaxNameLength)), "(no error)");
  EXPECT_EQ(errorOf(Named(MaxNameLength + 1)),
            "field 'types[0].name': longer than 255 characters");
  // An inline type has no name to give.
  EXPECT_EQ(
      errorOf(oneType(
          R"("kind": "dup", "oldtype": {"name": "in", "kind": "dup", "oldtype": "MPI_INT"})")),
      "type 't': field 'oldtype.name': inline types have no name");
}

TEST(FormatReaderTest, DuplicateNameAfterOthers) {
  // The second definition is refused even with another type in between.
  EXPECT_EQ(errorOf(R"({"ddtc": 1, "types": [
      {"name": "a", "kind": "dup", "oldtype": "MPI_INT"},
      {"name": "b", "kind": "dup", "oldtype": "a"},
      {"name": "a", "kind": "dup", "oldtype": "b"}]})"),
            "type 'a': field 'name': 'a' is defined twice");
}

TEST(FormatReaderTest, MissingAndUnknownKind) {
  EXPECT_EQ(errorOf(oneType(R"("count": 1, "oldtype": "MPI_INT")")),
            "type 't': field 'kind': missing");
  EXPECT_EQ(errorOf(oneType(R"("kind": 3)")),
            "type 't': field 'kind': expected a string, got an integer");
  // A predefined type is referred to by name, never built with a kind.
  EXPECT_EQ(errorOf(oneType(R"("kind": "predefined")")),
            "type 't': field 'kind': unknown kind 'predefined'");
  // In an inline type, the path leads to it.
  EXPECT_EQ(
      errorOf(oneType(R"("kind": "dup", "oldtype": {"oldtype": "MPI_INT"})")),
      "type 't': field 'oldtype.kind': missing");
}

TEST(FormatReaderTest, MissingAndUnknownFieldsOfInlineTypes) {
  EXPECT_EQ(
      errorOf(oneType(
          R"("kind": "contiguous", "count": 2, "oldtype": {"kind": "vector", "count": 2, "blocklength": 1, "oldtype": "MPI_INT"})")),
      "type 't': field 'oldtype.stride': missing");
  EXPECT_EQ(
      errorOf(oneType(
          R"("kind": "dup", "oldtype": {"kind": "dup", "oldtype": "MPI_INT", "count": 1})")),
      "type 't': field 'oldtype.count': unknown field for kind 'dup'");
  // Extensions are allowed on every type object.
  EXPECT_EQ(
      errorOf(oneType(
          R"("kind": "dup", "x-a": 1, "oldtype": {"kind": "dup", "x-b": {}, "oldtype": "MPI_INT"})")),
      "(no error)");
}

TEST(FormatReaderTest, WrongValueTypes) {
  EXPECT_EQ(
      errorOf(oneType(
          R"("kind": "indexed_block", "blocklength": 1, "displacements": 4, "oldtype": "MPI_INT")")),
      "type 't': field 'displacements': expected an array, got an integer");
  EXPECT_EQ(
      errorOf(oneType(
          R"("kind": "indexed_block", "blocklength": 1, "displacements": [0, null], "oldtype": "MPI_INT")")),
      "type 't': field 'displacements[1]': expected an integer, got null");
  EXPECT_EQ(
      errorOf(oneType(
          R"("kind": "contiguous", "count": true, "oldtype": "MPI_INT")")),
      "type 't': field 'count': expected an integer, got a boolean");
  EXPECT_EQ(errorOf(oneType(R"("kind": "dup", "oldtype": 4)")),
            "type 't': field 'oldtype': expected a type name or a type object, "
            "got an integer");
  EXPECT_EQ(
      errorOf(oneType(
          R"("kind": "struct", "blocklengths": [1], "displacements": [0], "types": [["MPI_INT"]])")),
      "type 't': field 'types[0]': expected a type name or a type "
      "object, got an array");
}

TEST(FormatReaderTest, WordValues) {
  const std::string Subarray =
      R"("kind": "subarray", "sizes": [4], "subsizes": [2], "starts": [1], "oldtype": "MPI_INT", "order": )";
  EXPECT_EQ(errorOf(oneType(Subarray + R"("C")")), "(no error)");
  EXPECT_EQ(errorOf(oneType(Subarray + R"("Fortran")")), "(no error)");
  // A near miss is quoted back; a number is not a word.
  EXPECT_EQ(
      errorOf(oneType(Subarray + R"("c")")),
      "type 't': field 'order': expected \"C\" or \"Fortran\", got \"c\"");
  EXPECT_EQ(errorOf(oneType(Subarray + "0")),
            "type 't': field 'order': expected \"C\" or \"Fortran\", got an "
            "integer");
  const std::string Darray =
      R"("kind": "darray", "size": 2, "rank": 0, "gsizes": [8], "psizes": [2], "order": "C", "oldtype": "MPI_INT", )";
  EXPECT_EQ(errorOf(oneType(Darray +
                            R"("distribs": ["blocks"], "dargs": ["default"])")),
            "type 't': field 'distribs[0]': expected \"block\", \"cyclic\" "
            "or \"none\", got \"blocks\"");
  EXPECT_EQ(
      errorOf(oneType(Darray + R"("distribs": ["cyclic"], "dargs": ["none"])")),
      "type 't': field 'dargs[0]': expected an integer or \"default\", "
      "got \"none\"");
  EXPECT_EQ(
      errorOf(oneType(Darray + R"("distribs": ["cyclic"], "dargs": [2])")),
      "(no error)");
}

TEST(FormatReaderTest, ListLengthsOfInlineTypes) {
  EXPECT_EQ(
      errorOf(oneType(
          R"("kind": "dup", "oldtype": {"kind": "hindexed", "blocklengths": [1, 1, 1], "displacements": [0, 8], "oldtype": "MPI_INT"})")),
      "type 't': field 'oldtype.displacements': has 2 entries but "
      "'blocklengths' has 3");
  EXPECT_EQ(
      errorOf(oneType(
          R"("kind": "subarray", "sizes": [4, 4], "subsizes": [2], "starts": [1, 1], "order": "C", "oldtype": "MPI_INT")")),
      "type 't': field 'subsizes': has 1 entries but 'sizes' has 2");
}

TEST(FormatReaderTest, UnknownTypeReferenceInInlineType) {
  EXPECT_EQ(
      errorOf(oneType(
          R"("kind": "dup", "oldtype": {"kind": "struct", "blocklengths": [1], "displacements": [0], "types": ["MPI_INTEGER9"]})")),
      "type 't': field 'oldtype.types[0]': 'MPI_INTEGER9' is neither a "
      "predefined type nor a type defined earlier in the file");
}

TEST(FormatReaderTest, InvalidMpiArguments) {
  // The context's checks of the MPI standard's rules, with the path of
  // the field, also from inside an inline type.
  EXPECT_EQ(
      errorOf(oneType(
          R"("kind": "subarray", "sizes": [4], "subsizes": [5], "starts": [0], "order": "C", "oldtype": "MPI_INT")")),
      "type 't': field 'subsizes[0]': must be between 1 and sizes[0] = "
      "4, got 5");
  EXPECT_EQ(
      errorOf(oneType(
          R"("kind": "dup", "oldtype": {"kind": "subarray", "sizes": [4], "subsizes": [2], "starts": [3], "order": "C", "oldtype": "MPI_INT"})")),
      "type 't': field 'oldtype.starts[0]': must be between 0 and "
      "sizes[0] - subsizes[0] = 2, got 3");
  const std::string Darray =
      R"("kind": "darray", "gsizes": [8], "distribs": ["block"], "order": "C", "oldtype": "MPI_INT", )";
  EXPECT_EQ(
      errorOf(oneType(
          Darray +
          R"("size": 2, "rank": 2, "dargs": ["default"], "psizes": [2])")),
      "type 't': field 'rank': must be between 0 and size - 1 = 1, got 2");
  EXPECT_EQ(
      errorOf(oneType(Darray +
                      R"("size": 2, "rank": 0, "dargs": [3], "psizes": [2])")),
      "type 't': field 'dargs[0]': blocks of 3 on 2 processes do not "
      "cover gsizes[0] = 8");
  EXPECT_EQ(
      errorOf(oneType(
          Darray +
          R"("size": 3, "rank": 0, "dargs": ["default"], "psizes": [2])")),
      "type 't': field 'psizes': the process grid does not have size = "
      "3 processes");
  EXPECT_EQ(
      errorOf(oneType(
          R"("kind": "indexed_block", "blocklength": -1, "displacements": [0], "oldtype": "MPI_INT")")),
      "type 't': field 'blocklength': must be non-negative, got -1");
}

} // namespace
