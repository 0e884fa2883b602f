// stepwise lint on a fixture course (course-lint-fixture/) whose docs disagree with its
// course.json in every way the lint knows (lint/course-docs runs it on the course itself).
#include <gtest/gtest.h>

#include <algorithm>

#include "course_lint.h"
#include "course_manifest.h"

using namespace runner;

namespace {

bool has(const std::vector<std::string>& problems, const std::string& problem) {
  return std::find(problems.begin(), problems.end(), problem) != problems.end();
}

TEST(CourseManifest, ReadsEachLessonInOrder) {
  const std::vector<ManifestLesson> lessons = read_manifest(COURSE_LINT_FIXTURE "/course.json");
  ASSERT_EQ(lessons.size(), 2u);
  EXPECT_EQ(lessons[1].folder(), "01-two");
  EXPECT_EQ(lessons[1].title, "Two");
  EXPECT_EQ(lessons[1].tracks, (std::vector<std::string>{"exercise", "solution"}));
}

TEST(CourseLint, AMissingRowAWrongTitleAnOrderAndAStrayLessonFail) {
  const std::vector<std::string> problems = lint_course(COURSE_LINT_FIXTURE);
  for (const std::string& p : problems) std::cout << p << "\n";
  EXPECT_TRUE(has(problems, "docs/README.md: no row for lesson 01-two (course.json lists it)"));
  EXPECT_TRUE(has(problems, "lessons/01-two/README.md:1: the first line is not '# Lesson 01 \u00b7 Two' (course.json's title)"));
  EXPECT_TRUE(has(problems, "docs/grading.md:4 (a sample of stepwise grade): the lessons are not in course.json's order"));
  EXPECT_TRUE(has(problems, "docs/grading.md:13: 02-three is not a lesson of course.json"));
  EXPECT_TRUE(has(problems, "grader/requirements.txt:3: 05-gone is not a lesson of course.json"));
  EXPECT_TRUE(has(problems, "grader/requirements.txt:4: 05-gone is not a lesson of course.json"));
  EXPECT_EQ(problems.size(), 6u);  // README.md's sample agrees: nothing about it
}

}  // namespace
