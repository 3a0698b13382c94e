// Lucene's own analyzer over documents (separated by NUL characters): documents per second, for
// bench_analysis.py's Lucene columns. Run with Anserini's fatjar on the class path:
//   java -cp anserini-fatjar.jar:. LuceneAnalysisSpeed CLASS|en FILE REPEAT
// CLASS is a Lucene analyzer's class (default constructor, as Anserini builds it); "en"
// is Anserini's DefaultEnglishAnalyzer. The first two runs warm the JIT and are not
// counted; the best of the others is printed as JSON.
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;

public class LuceneAnalysisSpeed {
  static Analyzer analyzer(String name) throws Exception {
    if (name.equals("en")) {
      return io.anserini.analysis.DefaultEnglishAnalyzer.newDefaultInstance();
    }
    return (Analyzer) Class.forName(name).getDeclaredConstructor().newInstance();
  }

  static long tokens(Analyzer analyzer, List<String> documents) throws Exception {
    long n = 0;
    for (String document : documents) {
      try (TokenStream stream = analyzer.tokenStream("contents", document)) {
        stream.reset();
        while (stream.incrementToken()) {
          n++;
        }
        stream.end();
      }
    }
    return n;
  }

  public static void main(String[] args) throws Exception {
    Analyzer analyzer = analyzer(args[0]);
    String text = Files.readString(Paths.get(args[1]), StandardCharsets.UTF_8);
    List<String> documents = Arrays.asList(text.split("\u0000", -1));
    int repeat = Integer.parseInt(args[2]);
    long n = 0;
    double best = Double.MAX_VALUE;
    for (int run = 0; run < repeat + 2; run++) {
      long start = System.nanoTime();
      n = tokens(analyzer, documents);
      double seconds = (System.nanoTime() - start) / 1e9;
      if (run >= 2) {
        best = Math.min(best, seconds);
      }
    }
    System.out.printf(
        "{\"docs\": %d, \"tokens\": %d, \"seconds\": %.6f, \"java\": \"%s\"}%n",
        documents.size(), n, best, System.getProperty("java.version"));
  }
}
