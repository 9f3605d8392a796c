package pykafka.peers;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.common.utils.Exit;

/**
 * Kafka's command-line tools run in turn in one JVM, so a test can run dozens of them without
 * starting a JVM for each (a kafka-*.sh run is a JVM start of ~1.5-3 s on a loaded 2-core box):
 *
 *   java -cp 'peers/target/kafka-lib/*' pykafka.peers.ToolShell
 *
 * Prints "READY", then reads one command per stdin line, the main class and its arguments separated
 * by the unit separator (U+001F), calls that
 * class's main(args) as the script would, and answers one JSON line {"code", "stdout", "stderr"}.
 * The exit code is what the process would have exited with: the first Exit.exit/halt the tool
 * calls (org.apache.kafka.common.utils.Exit, which every Kafka tool uses instead of System.exit),
 * 1 for an exception out of main, else 0. Output written after that first exit is dropped, as a
 * process would have written none.
 */
public final class ToolShell {
    private static final int NONE = Integer.MIN_VALUE;

    /** Unwinds the tool after its exit, as the end of the process would have. */
    private static final class ToolExit extends Error {
        ToolExit(int code) {
            super("exit " + code, null, false, false);
        }
    }

    /** System.out/err (and Scala's Console, which captures System.out once) write to the current target. */
    private static final class Switch extends OutputStream {
        volatile OutputStream target = OutputStream.nullOutputStream();

        @Override
        public void write(int b) throws java.io.IOException {
            target.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws java.io.IOException {
            target.write(b, off, len);
        }
    }

    public static void main(String[] args) throws Exception {
        PrintStream answers = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        Switch out = new Switch();
        Switch err = new Switch();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        AtomicInteger exitCode = new AtomicInteger(NONE);
        Exit.Procedure exit = (code, message) -> {
            if (exitCode.compareAndSet(NONE, code)) {
                System.out.flush();
                System.err.flush();
                out.target = OutputStream.nullOutputStream();
                err.target = OutputStream.nullOutputStream();
            }
            throw new ToolExit(code);
        };
        Exit.setExitProcedure(exit);
        Exit.setHaltProcedure(exit);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        answers.println("READY");
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.isBlank()) {
                continue;
            }
            String[] argv = line.split("\u001f", -1);
            ByteArrayOutputStream stdout = new ByteArrayOutputStream();
            ByteArrayOutputStream stderr = new ByteArrayOutputStream();
            exitCode.set(NONE);
            out.target = stdout;
            err.target = stderr;
            int code = 0;
            try {
                Method main = Class.forName(argv[0]).getMethod("main", String[].class);
                main.invoke(null, (Object) Arrays.copyOfRange(argv, 1, argv.length));
            } catch (InvocationTargetException e) {
                if (!(e.getCause() instanceof ToolExit) && exitCode.get() == NONE) {
                    // what the JVM does with an exception out of main
                    System.err.print("Exception in thread \"main\" ");
                    e.getCause().printStackTrace(System.err);
                    code = 1;
                }
            } catch (ReflectiveOperationException e) {
                System.err.println("ToolShell: " + e);
                code = 1;
            } catch (ToolExit e) {
                // exited; the code is recorded
            }
            System.out.flush();
            System.err.flush();
            out.target = OutputStream.nullOutputStream();
            err.target = OutputStream.nullOutputStream();
            answers.println("{\"code\": " + (exitCode.get() == NONE ? code : exitCode.get())
                + ", \"stdout\": " + quote(stdout.toString(StandardCharsets.UTF_8))
                + ", \"stderr\": " + quote(stderr.toString(StandardCharsets.UTF_8)) + "}");
        }
    }

    /** A JSON string literal. */
    private static String quote(String text) {
        StringBuilder b = new StringBuilder("\"");
        for (char ch : text.toCharArray()) {
            switch (ch) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (ch < 0x20) {
                        b.append(String.format("\\u%04x", (int) ch));
                    } else {
                        b.append(ch);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
