// A RAG request from a Node.js app: a chain span over a retrieval span and a chat span in
// the OTel GenAI conventions, exported as OTLP/JSON by the JS SDK. Prints its trace id.
//   node app.js http://127.0.0.1:4318/v1/traces
const { NodeTracerProvider } = require("@opentelemetry/sdk-trace-node");
const { SimpleSpanProcessor } = require("@opentelemetry/sdk-trace-base");
const { OTLPTraceExporter } = require("@opentelemetry/exporter-trace-otlp-http");
const { resourceFromAttributes } = require("@opentelemetry/resources");
const { context, trace } = require("@opentelemetry/api");

const DOCS = [
  { id: "eiffel", score: 0.8, content: "The Eiffel Tower is a wrought-iron lattice tower in Paris, France." },
  { id: "banana", score: 0.1, content: "Bananas are rich in potassium and grow in tropical regions." },
];
const QUERY = "Where is the Eiffel Tower?";
const ANSWER = "The Eiffel Tower is in Paris.";

async function main(endpoint) {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": "node-rag" }),
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: endpoint }))],
  });
  const tracer = provider.getTracer("node-rag-app");
  const root = tracer.startSpan("answer question", { attributes: { "http.route": "/ask" } });
  const parent = trace.setSpan(context.active(), root);
  const retrieval = tracer.startSpan("retrieval docs", {
    attributes: {
      "gen_ai.operation.name": "retrieval",
      "gen_ai.retrieval.query.text": QUERY,
      "gen_ai.retrieval.documents": JSON.stringify(DOCS),
    },
  }, parent);
  retrieval.end();
  const chat = tracer.startSpan("chat scripted-model", {
    attributes: {
      "gen_ai.operation.name": "chat",
      "gen_ai.input.messages": JSON.stringify([
        { role: "system", parts: [{ type: "text", content: "Answer from the documents." }] },
        { role: "user", parts: [{ type: "text", content: QUERY }] },
      ]),
      "gen_ai.output.messages": JSON.stringify([
        { role: "assistant", parts: [{ type: "text", content: ANSWER }], finish_reason: "stop" },
      ]),
    },
  }, parent);
  chat.end();
  root.end();
  await provider.forceFlush();
  await provider.shutdown();
  console.log(root.spanContext().traceId);
}

main(process.argv[2]).catch((error) => {
  console.error(error);
  process.exit(1);
});
