<!-- include start from interface/mac.xml.i -->
<leafNode name="mac">
  <properties>
    <help>Media Access Control (MAC) address</help>
    <valueHelp>
      <format>macaddr</format>
      <description>Hardware (MAC) address</description>
    </valueHelp>
    <constraint>
      <validator name="mac-address"/>
    </constraint>
  </properties>
</leafNode>
<!-- include end -->
