// bindings_csharp_xml_docs: every public member of Addbo.dll has complete XML documentation in
// Addbo.xml. Building Addbo.dll with -doc and warnings as errors already refuses a public
// member without a comment (CS1591) and a method documenting some of its parameters but not all
// (CS1573); this checks what mcs does not: a <summary> everywhere, a <param> for every parameter
// of every method, a <returns> for every method that returns a value, and an
// ObjectDisposedException among the <exception>s of every member of Optimizer that needs the
// native object. With the method table (bindings/optimizer_methods.swg) as a second argument,
// it also checks that the properties Count, PendingCount and Dimension, written by hand in
// csharp/addbo_csharp.swg, carry the table's doc text of count, pending and dimension.
// Usage: mono XmlDocCheck.exe Addbo.xml [optimizer_methods.swg]; exit status 0 when complete.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Text.RegularExpressions;
using System.Xml;

static class XmlDocCheck {
  static int problems = 0;
  static int checkedMembers = 0;

  static void Problem(string what) {
    problems++;
    Console.Error.WriteLine("incomplete XML documentation: " + what);
  }

  static string TypeId(Type type) {
    return type.FullName.Replace('+', '.');
  }

  static string MemberId(MemberInfo member) {
    string owner = TypeId(member.DeclaringType);
    var method = member as MethodBase;
    if (method != null) {
      string name = method.IsConstructor ? "#ctor" : method.Name;
      ParameterInfo[] parameters = method.GetParameters();
      string list = parameters.Length == 0 ? ""
          : "(" + string.Join(",", parameters.Select(p => TypeId(p.ParameterType))) + ")";
      return "M:" + owner + "." + name + list;
    }
    if (member is PropertyInfo) {
      return "P:" + owner + "." + member.Name;
    }
    if (member is FieldInfo) {
      return "F:" + owner + "." + member.Name;
    }
    return "?:" + owner + "." + member.Name;
  }

  // Members of Optimizer usable after Dispose(): they need no ObjectDisposedException.
  static readonly HashSet<string> UsableAfterDispose = new HashSet<string> {
    "Dispose", "Finalize", "IsDisposed", "ToString", "Load", "Version", ".ctor" };

  // The doc text of a row of the method table: its string literals joined.
  static string TableDoc(string table, string method) {
    Match row = Regex.Match(table, @"ADDBO_METHOD\(" + method + @",[^""]*((?:""[^""]*""\s*)+)\)");
    return row.Success ? string.Concat(Regex.Matches(row.Groups[1].Value, "\"([^\"]*)\"")
        .Cast<Match>().Select(literal => literal.Groups[1].Value)) : null;
  }

  static void CheckPropertyDocs(string tablePath, Dictionary<string, XmlElement> docs) {
    string table = System.IO.File.ReadAllText(tablePath);
    var properties = new Dictionary<string, string> {
      { "count", "Count" }, { "pending", "PendingCount" }, { "failures", "FailureCount" },
      { "dimension", "Dimension" } };
    foreach (var pair in properties) {
      string expected = TableDoc(table, pair.Key);
      XmlElement doc;
      docs.TryGetValue("P:Addbo.Optimizer." + pair.Value, out doc);
      string summary = doc == null || doc["summary"] == null ? null : doc["summary"].InnerText.Trim();
      checkedMembers++;
      if (expected == null || summary != expected) {
        Problem("P:Addbo.Optimizer." + pair.Value + ": <summary> '" + summary +
                "' is not the table's doc of " + pair.Key + ", '" + expected + "'");
      }
    }
  }

  static int Main(string[] args) {
    if (args.Length != 1 && args.Length != 2) {
      Console.Error.WriteLine("usage: XmlDocCheck.exe Addbo.xml [optimizer_methods.swg]");
      return 2;
    }
    var docs = new Dictionary<string, XmlElement>();
    var file = new XmlDocument();
    file.Load(args[0]);
    foreach (XmlElement member in file.GetElementsByTagName("member")) {
      docs[member.GetAttribute("name")] = member;
    }
    Assembly assembly = typeof(Addbo.Optimizer).Assembly;
    const BindingFlags declared = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance |
        BindingFlags.Static | BindingFlags.DeclaredOnly;
    foreach (Type type in assembly.GetExportedTypes()) {
      var members = new List<MemberInfo> { type };
      foreach (MemberInfo member in type.GetMembers(declared)) {
        var method = member as MethodBase;
        bool visible = method != null ? (method.IsPublic || method.IsFamily || method.IsFamilyOrAssembly)
            : member is PropertyInfo ? ((PropertyInfo)member).GetAccessors().Any(a => a.IsPublic || a.IsFamily)
            : member is FieldInfo ? ((FieldInfo)member).IsPublic && !((FieldInfo)member).IsSpecialName
            : false;
        if (visible && !(method != null && method.IsSpecialName && !method.IsConstructor)) {
          members.Add(member);
        }
      }
      foreach (MemberInfo member in members) {
        string id = member is Type ? "T:" + TypeId((Type)member) : MemberId(member);
        checkedMembers++;
        XmlElement doc;
        if (!docs.TryGetValue(id, out doc)) {
          Problem(id + ": no documentation");
          continue;
        }
        if (doc["summary"] == null || string.IsNullOrWhiteSpace(doc["summary"].InnerText)) {
          Problem(id + ": no <summary>");
        }
        var method = member as MethodBase;
        if (method != null) {
          var documented = new HashSet<string>(
              doc.SelectNodes("param").Cast<XmlElement>().Select(p => p.GetAttribute("name")));
          foreach (ParameterInfo parameter in method.GetParameters()) {
            if (!documented.Contains(parameter.Name)) {
              Problem(id + ": no <param name=\"" + parameter.Name + "\">");
            }
          }
          var info = method as MethodInfo;
          if (info != null && info.ReturnType != typeof(void) && doc["returns"] == null) {
            Problem(id + ": no <returns>");
          }
        }
        bool needsObject = member.DeclaringType == typeof(Addbo.Optimizer) && !(member is Type) &&
            !UsableAfterDispose.Contains(member.Name) && !(method != null && method.IsStatic);
        if (needsObject && !doc.SelectNodes("exception").Cast<XmlElement>().Any(
                e => e.GetAttribute("cref") == "T:System.ObjectDisposedException")) {
          Problem(id + ": no <exception cref=\"System.ObjectDisposedException\">");
        }
      }
    }
    if (args.Length == 2) {
      CheckPropertyDocs(args[1], docs);
    }
    Console.WriteLine("{0} documented members checked, {1} problems", checkedMembers, problems);
    return problems == 0 && checkedMembers > 0 ? 0 : 1;
  }
}
