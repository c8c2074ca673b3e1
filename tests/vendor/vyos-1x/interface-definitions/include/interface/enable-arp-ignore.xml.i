<!-- include start from interface/enable-arp-ignore.xml.i -->
<leafNode name="enable-arp-ignore">
  <properties>
    <help>Enable ARP ignore on this interface</help>
    <valueless/>
  </properties>
</leafNode>
<!-- include end -->
