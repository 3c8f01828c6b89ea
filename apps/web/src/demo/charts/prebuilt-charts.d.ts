// The chart routes load each library's own pre-built bundle (see chart-libraries.ts).
declare module 'echarts/dist/echarts.simple.min.js' {
  export * from 'echarts';
}
declare module 'recharts/umd/Recharts.js' {
  export * from 'recharts';
}
