/* The parent project's program: compiled against addbo.h through the addbo target's include
 * directories, and linked to libaddbo (tests/subproject/CMakeLists.txt). */
#include <stdio.h>

#include "addbo/addbo.h"

int main(void) {
  printf("addbo %s (header %s)\n", addbo_version(), ADDBO_VERSION_STRING);
  return 0;
}
