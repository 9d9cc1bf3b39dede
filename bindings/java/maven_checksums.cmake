# cmake -P script run when the Maven artifacts are built: writes <file>.sha1 and <file>.md5
# beside each artifact, as a Maven repository holds them, so that Maven and Gradle verify what
# they download from the installed repository (without them Maven warns, or fails under a
# checksum policy of "fail"). Input: FILES, "|"-separated paths.
string(REPLACE "|" ";" files "${FILES}")
foreach(file IN LISTS files)
  foreach(algorithm SHA1 MD5)
    file(${algorithm} "${file}" digest)
    string(TOLOWER "${algorithm}" extension)
    file(WRITE "${file}.${extension}" "${digest}")
  endforeach()
endforeach()
